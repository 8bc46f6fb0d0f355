package oracle

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestOracleStateChangedOnlyByTheOracle: no code of the package changes
// the safety oracle's counters (its safety field) but its own methods,
// whose receiver is o; clients and the store report events instead
// (event.go), and code outside the package cannot reach the field.
func TestOracleStateChangedOnlyByTheOracle(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range foreignSafetyWrites(af) {
			t.Errorf("%s: changes the oracle's counters from outside the oracle: report an event (observe) instead", fset.Position(at))
		}
	}
}

// foreignSafetyWrites returns where f assigns to or increments a field of
// X.safety for an X other than the oracle receiver o.
func foreignSafetyWrites(f *ast.File) []token.Pos {
	var out []token.Pos
	check := func(e ast.Expr) {
		if s, ok := e.(*ast.SelectorExpr); ok {
			if in, ok := s.X.(*ast.SelectorExpr); ok && in.Sel.Name == "safety" {
				if id, ok := in.X.(*ast.Ident); !ok || id.Name != "o" {
					out = append(out, e.Pos())
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IncDecStmt:
			check(n.X)
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				check(l)
			}
		}
		return true
	})
	return out
}
