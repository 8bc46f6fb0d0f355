package broken_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The broken variants run in the simulator like the correct patterns, so
// they obey the same rule as package locks (see locks/lint_test.go): time,
// randomness and goroutines only through the seams. These are the same
// checks, applied to this package.

// forbidden are the calls that escape the Clock seam: each reads or spends
// real time, draws global randomness, or hides a deadline from the simulator.
var forbidden = map[string]map[string]bool{
	"time":    {"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true, "AfterFunc": true, "Tick": true, "NewTicker": true, "NewTimer": true},
	"context": {"WithTimeout": true, "WithDeadline": true, "WithTimeoutCause": true, "WithDeadlineCause": true},
	"rand":    {"Int": true, "IntN": true, "Int64": true, "Int64N": true, "Int32N": true, "Uint32": true, "Uint64": true, "Float64": true, "N": true, "Perm": true, "Shuffle": true, "Intn": true, "Int63": true, "Int63n": true, "Seed": true},
}

// TestNoEscapeFromSeams fails if a variant calls time, context deadlines or
// global rand directly, imports math/rand (v1), or starts a bare goroutine.
func TestNoEscapeFromSeams(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range seamViolations(t, f, src) {
			t.Error(v)
		}
		checked++
	}
	if checked < 7 {
		t.Fatalf("checked only %d files; the glob is wrong", checked)
	}
}

// TestSeamLintCatches proves the lint by feeding it code that breaks each rule.
func TestSeamLintCatches(t *testing.T) {
	bad := map[string]string{
		"time.Now":            `package x; import "time"; func f() { _ = time.Now() }`,
		"time.Sleep":          `package x; import "time"; func f() { time.Sleep(1) }`,
		"time.NewTicker":      `package x; import "time"; func f() { time.NewTicker(1) }`,
		"renamed time":        `package x; import tm "time"; func f() { _ = tm.Now() }`,
		"context.WithTimeout": `package x; import "context"; func f() { context.WithTimeout(nil, 1) }`,
		"global rand":         `package x; import "math/rand/v2"; func f() { _ = rand.IntN(3) }`,
		"math/rand v1":        `package x; import "math/rand"; var _ = rand.New`,
		"go statement":        `package x; func f() { go f() }`,
	}
	for name, src := range bad {
		if v := seamViolations(t, name+".go", []byte(src)); len(v) == 0 {
			t.Errorf("lint missed %s in %q", name, src)
		}
	}
	ok := `package x; import ("time"; "context"); func f(ctx context.Context) time.Duration { _, c := context.WithCancel(ctx); c(); return time.Millisecond }`
	if v := seamViolations(t, "ok.go", []byte(ok)); len(v) != 0 {
		t.Errorf("lint flagged allowed code: %v", v)
	}
}

func seamViolations(t *testing.T, name string, src []byte) []string {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	local := map[string]string{} // local import name -> package key in forbidden
	var out []string
	for _, imp := range file.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		if path == "math/rand" {
			out = append(out, fset.Position(imp.Pos()).String()+": imports math/rand (use the Rand option)")
		}
		key := map[string]string{"time": "time", "context": "context", "math/rand/v2": "rand"}[path]
		if key == "" {
			continue
		}
		n := key
		if imp.Name != nil {
			n = imp.Name.Name
		}
		local[n] = key
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			out = append(out, fset.Position(n.Pos()).String()+": bare go statement (use Clock.Go or Clock.Parallel)")
		case *ast.SelectorExpr:
			id, ok := n.X.(*ast.Ident)
			if ok && forbidden[local[id.Name]][n.Sel.Name] {
				out = append(out, fset.Position(n.Pos()).String()+": "+id.Name+"."+n.Sel.Name+" escapes the Clock/Rand seams")
			}
		}
		return true
	})
	return out
}
