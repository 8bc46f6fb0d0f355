package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealSleepsSayWhy: a test that sleeps in real time either waits for
// something no clock moves (a real redis-server's TTL, a real process,
// goroutines the Go runtime schedules) or stands in for a clock the code
// takes through the Clock seam, which a manual clock
// (clock/clocktest.ManualClock) moves instead. So every time.Sleep in the
// module's tests carries a comment on its line or the line above, or sits
// in a function whose doc says "real time", saying which need it serves.
func TestRealSleepsSayWhy(t *testing.T) {
	pkgs := listTestFiles(t)
	checked := 0
	for _, p := range pkgs {
		for _, f := range append(p.TestGoFiles, p.XTestGoFiles...) {
			v, err := unexplainedSleeps(filepath.Join(p.Dir, f), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range v {
				t.Error(s)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("checked only %d test files; the listing is wrong", checked)
	}
}

// TestUnexplainedSleepsFound proves the check on sources of its own.
func TestUnexplainedSleepsFound(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      int
	}{
		{"bare", "package a\nimport \"time\"\nfunc f() {\n\ttime.Sleep(1)\n}\n", 1},
		{"same line", "package a\nimport \"time\"\nfunc f() {\n\ttime.Sleep(1) // real time: a real process\n}\n", 0},
		{"line above", "package a\nimport \"time\"\nfunc f() {\n\t// real time: a real process\n\ttime.Sleep(1)\n}\n", 0},
		{"comment two lines up", "package a\nimport \"time\"\nfunc f() {\n\t// unrelated\n\tg()\n\ttime.Sleep(1)\n}\n", 1},
		{"helper's doc", "package a\nimport \"time\"\n// f polls in real time.\nfunc f() {\n\tfor {\n\t\ttime.Sleep(1)\n\t}\n}\n", 0},
		{"doc across lines", "package a\nimport \"time\"\n// f polls in real\n// time.\nfunc f() {\n\ttime.Sleep(1)\n}\n", 0},
		{"other doc", "package a\nimport \"time\"\n// f polls.\nfunc f() {\n\ttime.Sleep(1)\n}\n", 1},
		{"in a string", "package a\nvar s = `time.Sleep(1)`\n", 0},
		{"renamed import", "package a\nimport tm \"time\"\nfunc f() {\n\ttm.Sleep(1)\n}\n", 1},
	} {
		v, err := unexplainedSleeps(c.name+".go", []byte(c.src))
		if err != nil || len(v) != c.want {
			t.Errorf("%s: unexplainedSleeps = %q, %v; want %d", c.name, v, err, c.want)
		}
	}
}

// unexplainedSleeps returns one line per time.Sleep call in the file (src,
// or read from path when src is nil) that no comment explains.
func unexplainedSleeps(path string, src []byte) ([]string, error) {
	fset := token.NewFileSet()
	var from any // the file at path
	if src != nil {
		from = src
	}
	f, err := parser.ParseFile(fset, path, from, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	name := timeImport(f)
	if name == "" {
		return nil, nil
	}
	commented := map[int]bool{} // lines that end a comment
	for _, g := range f.Comments {
		for _, c := range g.List {
			commented[fset.Position(c.End()).Line] = true
		}
	}
	var out []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || (fd.Doc != nil && strings.Contains(strings.ToLower(strings.Join(strings.Fields(fd.Doc.Text()), " ")), "real time")) {
			continue
		}
		ast.Inspect(fd, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isCall(call, name, "Sleep") {
				return true
			}
			line := fset.Position(call.Pos()).Line
			if !commented[line] && !commented[line-1] {
				out = append(out, fmt.Sprintf("%s: time.Sleep with no comment saying why real time is needed (or use clock/clocktest.ManualClock)", fset.Position(call.Pos())))
			}
			return true
		})
	}
	return out, nil
}

// timeImport is the name the file imports package time under, or "".
func timeImport(f *ast.File) string {
	for _, imp := range f.Imports {
		if imp.Path.Value == `"time"` {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return "time"
		}
	}
	return ""
}

// isCall reports whether call is pkg.fn(...).
func isCall(call *ast.CallExpr, pkg, fn string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != fn {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}
