package realmode

import (
	"math"
	"strings"
	"testing"
)

// TestWilson: the interval against values computed by hand.
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n           int
		p, lo, hi, eps float64
	}{
		{0, 10, 0, 0, 0.2775, 1e-4},
		{10, 10, 1, 0.7225, 1, 1e-4},
		{5, 10, 0.5, 0.2366, 0.7634, 1e-4},
		{0, 0, 0, 0, 1, 0},
	} {
		p, lo, hi := Wilson(c.k, c.n)
		if math.Abs(p-c.p) > c.eps || math.Abs(lo-c.lo) > c.eps || math.Abs(hi-c.hi) > c.eps {
			t.Errorf("Wilson(%d, %d) = %.4f [%.4f, %.4f], want %.4f [%.4f, %.4f]", c.k, c.n, p, lo, hi, c.p, c.lo, c.hi)
		}
	}
}

// TestWriteTableNamesRefusedSubjects: the table counts agreement over the
// cells both sides ran, keeps library rows apart, and says for which
// subjects a scenario was refused.
func TestWriteTableNamesRefusedSubjects(t *testing.T) {
	cells := []Cell{
		{Pattern: "basic", Scenario: "gc-pause", Sim: Tally{Runs: 20, Violated: 18}, Real: Tally{Runs: 5, Violated: 4}},
		{Pattern: "basic", Scenario: "steady", Sim: Tally{Runs: 20}, Real: Tally{Runs: 5, Violated: 2}},
		{Pattern: "basic", Scenario: "failover", Refused: "no replica"},
		{Pattern: "redsync-1", Scenario: "gc-pause", Real: Tally{Runs: 5, Violated: 5}},
		{Pattern: "redsync-1", Scenario: "failover", Refused: "no replica"},
	}
	var b strings.Builder
	if err := WriteTable(&b, cells); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| basic | gc-pause | 18/20 (90%, 70–97%) | 4/5 (80%, 38–96%) | yes |",
		"| basic | steady | 0/20 (0%, 0–16%) | 2/5 (40%, 12–77%) | **no** |",
		"1 of 2 cells agree.",
		"| redsync-1 | gc-pause | 5/5 (100%, 57–100%) |",
		"- `failover` (basic, redsync-1): no replica",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
