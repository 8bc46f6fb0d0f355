package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/childproc"
)

// mapOrderExceptions are the ranges over a map in the simulator's code
// that the rule of TestNoMapOrderDependence cannot see to be safe, each
// with the reason it is: the file and the ranged expression.
var mapOrderExceptions = []struct{ file, ranged, why string }{
	{"sim/node/lua_redis.go", "fns", "registers each function in the Lua redis table by name; the table is the same in any order"},
	{"sim/node/native_scripts.go", "scripts.All()", "fills two maps keyed by script SHA; they are the same in any order"},
	{"sim/node/twins.go", "scripts.All()", "fills a map keyed by script SHA; it is the same in any order"},
	{"sim/node/native_zsets.go", "scores", "zrank counts the members ordered before one: the count is the same in any order"},
	{"sim/node/native_zsets.go", "zset", "zfirst keeps the least (score, member), a total order: the same in any order"},
}

// TestNoMapOrderDependence type-checks the simulator's packages and fails
// on every range over a map whose result could depend on Go's random
// iteration order. A range is safe when its body only writes map entries
// or appends to slices, and each slice it appends to is sorted later in
// the same block (a call whose name says sort, with the slice as an
// argument); anything else must be in mapOrderExceptions with its reason.
func TestNoMapOrderDependence(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks every simulator package (go list -export)")
	}
	used := make([]bool, len(mapOrderExceptions))
	ranges := 0
	for _, r := range mapRanges(t) {
		ranges++
		if r.safe {
			continue
		}
		i := mapOrderException(r.file, r.ranged)
		if i < 0 {
			t.Errorf("%s: range over map %s may depend on iteration order (sort what it collects, or add it to mapOrderExceptions with the reason)", r.pos, r.ranged)
			continue
		}
		used[i] = true
	}
	for i, e := range mapOrderExceptions {
		if !used[i] {
			t.Errorf("mapOrderExceptions: %s %s is no longer found; remove it", e.file, e.ranged)
		}
	}
	if ranges < 5 {
		t.Fatalf("found only %d ranges over maps; the type check is wrong", ranges)
	}
}

// mapOrderException returns the index of the exception for a range over
// ranged in file, or -1.
func mapOrderException(file, ranged string) int {
	for i, e := range mapOrderExceptions {
		if e.file == file && e.ranged == ranged {
			return i
		}
	}
	return -1
}

// mapRange is one range over a map.
type mapRange struct {
	pos          token.Position
	file, ranged string // file relative to the module root
	safe         bool
}

// listedPkg is what go list -export reports of one package.
type listedPkg struct {
	ImportPath, Dir, Export string
	GoFiles                 []string
}

// mapRanges type-checks every package under sim/ against its
// dependencies' export data and returns its ranges over maps.
func mapRanges(t *testing.T) []mapRange {
	t.Helper()
	pkgs, exports := listExports(t)
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) })
	var out []mapRange
	for _, p := range pkgs {
		var files []*ast.File
		for _, f := range p.GoFiles {
			af, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, af)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
		if _, err := (&types.Config{Importer: imp}).Check(p.ImportPath, fset, files, info); err != nil {
			t.Fatalf("type-check %s: %v", p.ImportPath, err)
		}
		for _, f := range files {
			out = append(out, fileMapRanges(fset, info, f)...)
		}
	}
	return out
}

// listExports lists the simulator's packages and every dependency's
// export data file.
func listExports(t *testing.T) ([]listedPkg, map[string]string) {
	t.Helper()
	cmd := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Dir,Export,GoFiles", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	data, err := childproc.Output(cmd)
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	const prefix = "github.com/locksim/locksim/sim"
	exports := map[string]string{}
	var mine []listedPkg
	for dec := json.NewDecoder(bytes.NewReader(data)); ; {
		var p listedPkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return mine, exports
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		exports[p.ImportPath] = p.Export
		if p.ImportPath == prefix || strings.HasPrefix(p.ImportPath, prefix+"/") {
			mine = append(mine, p)
		}
	}
}

// fileMapRanges returns f's ranges over maps, each judged within the
// function that holds it.
func fileMapRanges(fset *token.FileSet, info *types.Info, f *ast.File) []mapRange {
	var out []mapRange
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			r, ok := n.(*ast.RangeStmt)
			if !ok {
				return true
			}
			if _, isMap := info.TypeOf(r.X).Underlying().(*types.Map); isMap {
				pos := fset.Position(r.Pos())
				out = append(out, mapRange{pos: pos, file: moduleRel(pos.Filename), ranged: exprText(fset, r.X), safe: orderFree(r, fd.Body)})
			}
			return true
		})
	}
	return out
}

// orderFree reports whether the body of range r only writes map entries
// and appends to slices that fn sorts after the range.
func orderFree(r *ast.RangeStmt, fn *ast.BlockStmt) bool {
	body := r.Body
	for _, s := range body.List {
		a, ok := s.(*ast.AssignStmt)
		if !ok || len(a.Lhs) != len(a.Rhs) {
			return false
		}
		for j, lhs := range a.Lhs {
			if _, isIndex := lhs.(*ast.IndexExpr); isIndex {
				continue
			}
			id, isIdent := lhs.(*ast.Ident)
			if !isIdent || !isAppendTo(a.Rhs[j], id.Name) || !sortedAfter(id.Name, fn, r.End()) {
				return false
			}
		}
	}
	return true
}

// isAppendTo reports whether e is append(name, ...).
func isAppendTo(e ast.Expr, name string) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	fn, ok := c.Fun.(*ast.Ident)
	arg, ok2 := c.Args[0].(*ast.Ident)
	return ok && ok2 && fn.Name == "append" && arg.Name == name
}

// sortedAfter reports whether fn, after position from, calls a function
// whose name says sort with name as an argument.
func sortedAfter(name string, fn *ast.BlockStmt, from token.Pos) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if ok && c.Pos() > from && strings.Contains(strings.ToLower(callName(c)), "sort") && argNamed(c, name) {
			found = true
		}
		return !found
	})
	return found
}

// callName is the called function's name, with its package or receiver
// for a selector (sort.Ints).
func callName(c *ast.CallExpr) string {
	switch fn := c.Fun.(type) {
	case *ast.Ident:
		return fn.Name
	case *ast.SelectorExpr:
		if x, ok := fn.X.(*ast.Ident); ok {
			return x.Name + "." + fn.Sel.Name
		}
		return fn.Sel.Name
	}
	return ""
}

// argNamed reports whether one of c's arguments is the identifier name.
func argNamed(c *ast.CallExpr, name string) bool {
	for _, a := range c.Args {
		if id, ok := a.(*ast.Ident); ok && id.Name == name {
			return true
		}
	}
	return false
}

// exprText prints e as source.
func exprText(fset *token.FileSet, e ast.Expr) string {
	var b bytes.Buffer
	_ = printer.Fprint(&b, fset, e)
	return b.String()
}

// moduleRel returns path relative to the module root, from "sim/" on.
func moduleRel(path string) string {
	path = filepath.ToSlash(path)
	if i := strings.LastIndex(path, "/sim/"); i >= 0 {
		return path[i+1:]
	}
	return path
}
