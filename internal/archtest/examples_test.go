package archtest

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testFiles is what the example rule needs of one package.
type testFiles struct {
	ImportPath   string
	Name         string
	Dir          string
	TestGoFiles  []string
	XTestGoFiles []string
}

// TestEveryPublicPackageHasAnExample: each package a user can import (not
// under internal/, not a command) has an Example whose output go test
// checks (a "// Output:" comment with something in it), so that its doc
// shows a use that runs. A wirer is a command in library form and is
// excused like one: its Main exits the process, so no Example can call
// it; its doc gives the main that does, and a test of the examples
// module (examples/cmd/fencedwatch-locksim) builds and runs that main.
func TestEveryPublicPackageHasAnExample(t *testing.T) {
	pkgs := listTestFiles(t)
	if len(pkgs) < 20 {
		t.Fatalf("go list found only %d packages; the listing is wrong", len(pkgs))
	}
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if under(rel, "internal") || p.Name == "main" || slices.Contains(wirers, rel) {
			continue
		}
		n, err := checkedExamples(p.Dir, append(p.TestGoFiles, p.XTestGoFiles...))
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Errorf("%s has no Example with a // Output: comment", rel)
		}
	}
}

// TestCheckedExamplesCountsOnlyOutput proves the counter on files of its
// own: an Example with output counts, one without (compiled, never run)
// does not.
func TestCheckedExamplesCountsOnlyOutput(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a_test.go"), "package a\n\nimport \"fmt\"\n\nfunc ExampleA() {\n\tfmt.Println(1)\n\t// Output: 1\n}\n")
	write(t, filepath.Join(dir, "b_test.go"), "package a\n\nimport \"fmt\"\n\nfunc ExampleB() {\n\tfmt.Println(1)\n}\n")
	for _, c := range []struct {
		files []string
		want  int
	}{{[]string{"a_test.go", "b_test.go"}, 1}, {[]string{"b_test.go"}, 0}, {nil, 0}} {
		n, err := checkedExamples(dir, c.files)
		if err != nil || n != c.want {
			t.Errorf("checkedExamples(%q) = %d, %v; want %d", c.files, n, err, c.want)
		}
	}
}

// checkedExamples counts the Examples in dir's files whose output go test
// compares.
func checkedExamples(dir string, files []string) (int, error) {
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		af, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, parser.ParseComments)
		if err != nil {
			return 0, err
		}
		parsed = append(parsed, af)
	}
	n := 0
	for _, ex := range doc.Examples(parsed...) {
		if ex.Output != "" {
			n++
		}
	}
	return n, nil
}

// listTestFiles runs go list -json over the whole module for the test
// files of each package.
func listTestFiles(t *testing.T) []testFiles {
	return goList[testFiles](t, "ImportPath,Name,Dir,TestGoFiles,XTestGoFiles")
}

func write(t *testing.T, path, src string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}
