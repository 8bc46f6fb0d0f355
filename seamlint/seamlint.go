// Package seamlint finds Go code that escapes the seams the simulator
// controls: direct reads of the wall clock, real sleeps and timers, context
// deadlines not made by a clock.Clock, global randomness, math/rand (v1),
// and bare go statements. Lock code that is to run in the simulator (package
// locks, the broken variants, and any user's pattern) must use clock.Clock
// and locks.Rand instead; each package's lint test runs Check over its
// own files (with the exceptions its own code needs, each with its
// reason), Dir and Tree give the findings of a directory or a tree, and
// locksimtest.Lint checks a whole module.
//
// The lint is syntactic: it reads the files, not their types, so it sees a
// call through a renamed import but not one made by a helper in another
// package. It is a guard, not a proof; the simulator's own checks (a
// goroutine that blocks outside the seams fails the run, naming it) are
// the second line.
package seamlint

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// forbidden are the calls that escape the Clock seam: each reads or spends
// real time, draws global randomness, or hides a deadline from the simulator.
var forbidden = map[string]map[string]bool{
	"time":    {"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true, "AfterFunc": true, "Tick": true, "NewTicker": true, "NewTimer": true},
	"context": {"WithTimeout": true, "WithDeadline": true, "WithTimeoutCause": true, "WithDeadlineCause": true},
	"rand":    {"Int": true, "IntN": true, "Int64": true, "Int64N": true, "Int32N": true, "Uint32": true, "Uint64": true, "Float64": true, "N": true, "Perm": true, "Shuffle": true, "Intn": true, "Int63": true, "Int63n": true, "Seed": true},
}

var keys = map[string]string{"time": "time", "context": "context", "math/rand/v2": "rand"}

// Source returns the violations in one file's source, each as
// "file:line:col: what".
func Source(name string, src []byte) ([]string, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		return nil, fmt.Errorf("seamlint: parse %s: %w", name, err)
	}
	var out []string
	local := map[string]string{} // local import name -> key in forbidden
	for _, imp := range file.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		if path == "math/rand" {
			out = append(out, fset.Position(imp.Pos()).String()+": imports math/rand (use the Rand option)")
		}
		key := keys[path]
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
	return out, nil
}

// Tree checks every non-test .go file in root and the directories below it
// (as go's "./..." does: skipping testdata, vendor and directories whose
// names start with "." or "_"); it returns the violations and how many
// files it checked.
func Tree(root string) (violations []string, checked int, err error) {
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		v, n, err := Dir(path)
		violations, checked = append(violations, v...), checked+n
		return err
	})
	return violations, checked, err
}

// Dir checks every non-test .go file in dir; it returns the violations and
// how many files it checked.
func Dir(dir string) (violations []string, checked int, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, 0, err
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, checked, err
		}
		v, err := Source(f, src)
		if err != nil {
			return nil, checked, err
		}
		violations = append(violations, v...)
		checked++
	}
	return violations, checked, nil
}
