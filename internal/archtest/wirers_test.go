package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestWirersAPINamesNoInternalPackage: no exported identifier of a wirer
// (a function's or method's signature, a type with its exported fields
// and methods, a variable or constant with its type and value) mentions
// an internal package, so that a user who imports the wirer never needs
// one. Every Go file of the package is read, whatever its build
// constraint.
func TestWirersAPINamesNoInternalPackage(t *testing.T) {
	dirs := map[string]string{}
	for _, p := range goList[testFiles](t, "ImportPath,Name,Dir") {
		dirs[strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")] = p.Dir
	}
	for _, rel := range wirers {
		dir, ok := dirs[rel]
		if !ok {
			t.Fatalf("wirer %s is not a package of the module: drop it from wirers", rel)
		}
		leaks, n, err := apiLeaks(dir)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Errorf("%s: no Go file read; the listing is wrong", rel)
		}
		for _, l := range leaks {
			t.Errorf("%s: %s", rel, l)
		}
	}
}

// TestAPILeaksCaught proves the check on a package of its own: each
// exported declaration that names an internal package, added to a
// package whose internal uses are all unexported or in bodies, is
// reported, and that package alone is not.
func TestAPILeaksCaught(t *testing.T) {
	const head = "package cli\n\nimport (\n\t\"fmt\"\n\tg \"" + module + "/internal/gate\"\n\t\"" + module + "/internal/report\"\n)\n\n"
	const good = head + `// Main uses the internal packages only in its body.
func Main(names ...string) { fmt.Println(g.Run(names), report.New()) }

func check(e g.Expectations) error { return nil }

type options struct{ exp g.Expectations }

// Options has an unexported field of an internal type.
type Options struct {
	exp  g.Expectations
	Seed int
}

func (o Options) merge(r report.Report) {}

func (o options) Write(r report.Report) {}

var defaults = report.New()
`
	dir := t.TempDir()
	write(t, filepath.Join(dir, "good.go"), good)
	write(t, filepath.Join(dir, "good_test.go"), head+"func TestX(e g.Expectations) {}\n")
	if leaks, n, err := apiLeaks(dir); err != nil || n != 1 || len(leaks) != 0 {
		t.Fatalf("apiLeaks(a package without leaks) = %q, %d files, %v; want none, 1 file", leaks, n, err)
	}
	wrong := []struct {
		name, src, want string
	}{
		{"parameter", "func Check(e g.Expectations) error { return nil }", "func Check names " + module + "/internal/gate"},
		{"result", "func Open() *report.Report { return nil }", "func Open names " + module + "/internal/report"},
		{"method", "func (o Options) Merge(r report.Report) {}", "func Options.Merge names " + module + "/internal/report"},
		{"exported field", "type Config struct{ Exp []g.Expectations }", "type Config names " + module + "/internal/gate"},
		{"embedded field", "type Config struct{ g.Expectations }", "type Config names " + module + "/internal/gate"},
		{"alias", "type Expectations = g.Expectations", "type Expectations names " + module + "/internal/gate"},
		{"interface", "type Runner interface{ Run() g.Result }", "type Runner names " + module + "/internal/gate"},
		{"variable", "var Default = report.New()", "var Default names " + module + "/internal/report"},
		{"constant", "const Limit = g.MaxSeeds", "const Limit names " + module + "/internal/gate"},
	}
	for _, w := range wrong {
		t.Run(w.name, func(t *testing.T) {
			write(t, filepath.Join(dir, "wrong.go"), head+w.src+"\n")
			leaks, _, err := apiLeaks(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(leaks, func(s string) bool { return strings.HasPrefix(s, w.want) }) {
				t.Errorf("apiLeaks(%q) = %q, want one starting %q", w.src, leaks, w.want)
			}
		})
	}
	os.Remove(filepath.Join(dir, "wrong.go"))
	write(t, filepath.Join(dir, "dot.go"), "package cli\n\nimport . \""+module+"/internal/gate\"\n")
	if leaks, _, _ := apiLeaks(dir); len(leaks) != 1 || !strings.Contains(leaks[0], "dot-imports") {
		t.Errorf("apiLeaks(a dot import of an internal package) = %q, want it named", leaks)
	}
}

// apiLeaks parses every non-test Go file of dir and returns one line per
// exported declaration that mentions an internal package of the module,
// with the number of files read.
func apiLeaks(dir string) ([]string, int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, 0, err
	}
	var out []string
	n := 0
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, 0, err
		}
		n++
		out = append(out, fileLeaks(f)...)
	}
	return out, n, nil
}

// fileLeaks returns one line per exported declaration of f that mentions
// one of f's imports of an internal package, and one per dot import of
// such a package (whose names could not be told from f's own).
func fileLeaks(f *ast.File) []string {
	internal, out := internalNames(f)
	if len(internal) == 0 {
		return out
	}
	for _, d := range f.Decls {
		for _, e := range exportedParts(d) {
			for _, imp := range mentioned(e.node, internal) {
				out = append(out, fmt.Sprintf("%s names %s (an exported identifier must not need an internal package)", e.what, imp))
			}
		}
	}
	return out
}

// internalNames maps the name f refers to each internal package of the
// module by to its import path, and reports each dot import of one.
func internalNames(f *ast.File) (map[string]string, []string) {
	names := map[string]string{}
	var dots []string
	for _, s := range f.Imports {
		p, err := strconv.Unquote(s.Path.Value)
		rel, ours := strings.CutPrefix(p, module+"/")
		if err != nil || !ours || !under(rel, "internal") {
			continue
		}
		name := path.Base(p)
		if s.Name != nil {
			name = s.Name.Name
		}
		switch name {
		case "_":
		case ".":
			dots = append(dots, fmt.Sprintf("dot-imports %s (its names could not be told from the package's own)", p))
		default:
			names[name] = p
		}
	}
	return names, dots
}

// part is a piece of an exported declaration that a user of the package
// sees, and what to call it.
type part struct {
	what string
	node ast.Node
}

// exportedParts returns the pieces of d that an importer sees: an
// exported function's or exported type's method's signature; an exported
// type (of a struct, only its exported and embedded fields); an exported
// variable's or constant's type and values.
func exportedParts(d ast.Decl) []part {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return funcParts(d)
	case *ast.GenDecl:
		var out []part
		for _, s := range d.Specs {
			out = append(out, specParts(d.Tok, s)...)
		}
		return out
	}
	return nil
}

// funcParts returns the signature of d if an importer can call it.
func funcParts(d *ast.FuncDecl) []part {
	if !d.Name.IsExported() {
		return nil
	}
	if d.Recv == nil {
		return []part{{"func " + d.Name.Name, d.Type}}
	}
	recv := receiverName(d.Recv.List[0].Type)
	if !ast.IsExported(recv) {
		return nil
	}
	return []part{{"func " + recv + "." + d.Name.Name, d.Type}}
}

// receiverName is the name of the type of a method's receiver.
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// specParts returns the pieces of an exported type, variable or constant
// of s.
func specParts(tok token.Token, s ast.Spec) []part {
	switch s := s.(type) {
	case *ast.TypeSpec:
		if !s.Name.IsExported() {
			return nil
		}
		return typeParts("type "+s.Name.Name, s)
	case *ast.ValueSpec:
		var out []part
		for i, n := range s.Names {
			if !n.IsExported() {
				continue
			}
			what := tok.String() + " " + n.Name
			if s.Type != nil {
				out = append(out, part{what, s.Type})
			}
			if i < len(s.Values) {
				out = append(out, part{what, s.Values[i]})
			}
		}
		return out
	}
	return nil
}

// typeParts returns what an importer sees of the exported type s: its
// type parameters and, of a struct, the exported and embedded fields; of
// any other type, all of it.
func typeParts(what string, s *ast.TypeSpec) []part {
	var out []part
	if s.TypeParams != nil {
		out = append(out, part{what, s.TypeParams})
	}
	st, ok := s.Type.(*ast.StructType)
	if !ok {
		return append(out, part{what, s.Type})
	}
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 || slices.ContainsFunc(f.Names, (*ast.Ident).IsExported) {
			out = append(out, part{what, f.Type})
		}
	}
	return out
}

// mentioned returns the import paths of internal, by the names f refers
// to them by, that n mentions as a package qualifier.
func mentioned(n ast.Node, internal map[string]string) []string {
	var out []string
	ast.Inspect(n, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				if p, ok := internal[id.Name]; ok && !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
		return true
	})
	return out
}
