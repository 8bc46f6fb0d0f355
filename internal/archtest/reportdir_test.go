package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A report's directory is written by one call, report.Generate, through
// one transaction, package reportdir (the manifest, the lock, the
// staging, the swap or the journalled moves), so that a directory holds
// one report whatever happens: the command only wires flags to it.
const (
	reportPkg    = "internal/report"
	reportDirPkg = "internal/reportdir"
)

type sourceImports struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
}

// TestReportDirHasOneWriter: no package but internal/report imports
// internal/reportdir, and no package's code but internal/report's calls
// report.Write, which writes a report into a directory as it is, with no
// manifest, lock or staging (the report command did, around a
// transaction of its own).
func TestReportDirHasOneWriter(t *testing.T) {
	checked := 0
	for _, p := range goList[sourceImports](t, "ImportPath,Dir,GoFiles,Imports") {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if rel == reportPkg || rel == reportDirPkg {
			continue
		}
		if slices.Contains(p.Imports, module+"/"+reportDirPkg) {
			t.Errorf("%s imports %s (a report's directory is written through report.Generate)", rel, reportDirPkg)
		}
		for _, f := range p.GoFiles {
			checked++
			v, err := reportWrites(filepath.Join(p.Dir, f), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range v {
				t.Errorf("%s (write a report's directory through report.Generate)", s)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("checked only %d files; the listing is wrong", checked)
	}
}

// reportWrites returns the uses of report.Write (through whatever name
// the file imports internal/report by) in the file at path (src, when
// not nil).
func reportWrites(path string, src []byte) ([]string, error) {
	fset := token.NewFileSet()
	var text any // nil: read the file
	if src != nil {
		text = src
	}
	f, err := parser.ParseFile(fset, path, text, 0)
	if err != nil {
		return nil, err
	}
	name := ""
	for _, imp := range f.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err == nil && p == module+"/"+reportPkg {
			name = "report"
			if imp.Name != nil {
				name = imp.Name.Name
			}
		}
	}
	if name == "" {
		return nil, nil
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Write" {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == name {
			out = append(out, fmt.Sprintf("%s: uses report.Write", fset.Position(sel.Pos())))
		}
		return true
	})
	return out, nil
}

// TestReportWritesFound proves the check on sources of its own.
func TestReportWritesFound(t *testing.T) {
	const imp = "import \"" + module + "/" + reportPkg + "\"\n"
	for _, c := range []struct {
		name, src string
		want      int
	}{
		{"a call", "package a\n" + imp + "func f() error { return report.Write(dir, m, nil, report.Options{}) }\n", 1},
		{"renamed", "package a\nimport r \"" + module + "/" + reportPkg + "\"\nfunc f() error { return r.Write(dir, m, nil, r.Options{}) }\n", 1},
		{"as a value", "package a\n" + imp + "var w = report.Write\n", 1},
		{"through Generate", "package a\n" + imp + "func f() { report.Generate(ctx, report.Job{}) }\n", 0},
		{"a page to a writer", "package a\n" + imp + "func f() { report.WriteMarkdown(w, d) }\n", 0},
		{"another report package", "package a\nimport \"example.com/report\"\nfunc f() { report.Write() }\n", 0},
	} {
		v, err := reportWrites(c.name+".go", []byte(c.src))
		if err != nil || len(v) != c.want {
			t.Errorf("%s: reportWrites = %q, %v; want %d", c.name, v, err, c.want)
		}
	}
}
