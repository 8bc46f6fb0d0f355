package realmode

import (
	"math"
	"strings"
	"testing"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
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

// TestWriteTableNamesRefusedSubjects: the table counts agreement kind by
// kind over the cells both sides ran, keeps library rows apart, says for
// which subjects a scenario was refused, and reads back as it was
// written.
func TestWriteTableNamesRefusedSubjects(t *testing.T) {
	mutex := pattern.Claims{Mutex: true, Progress: 3, LossSignal: 2}
	cells := []Cell{
		{Pattern: "basic", Scenario: "gc-pause", ClaimSet: mutex,
			Sim:  Tally{Runs: 20, Violated: 18, Kinds: KindCounts{Safety: 18}},
			Real: Tally{Runs: 5, Violated: 4, Kinds: KindCounts{Safety: 4, Promptness: 1}}},
		{Pattern: "fenced", Scenario: "steady", ClaimSet: mutex,
			Sim: Tally{Runs: 20}, Real: Tally{Runs: 5, Violated: 2, Kinds: KindCounts{Liveness: 2}}},
		{Pattern: "basic", Scenario: "failover", Refused: "no replica"},
		{Pattern: "redsync-1", Scenario: "gc-pause", ClaimSet: pattern.Claims{Mutex: true},
			Real: Tally{Runs: 5, Violated: 5, Kinds: KindCounts{Safety: 5}}},
		{Pattern: "redsync-1", Scenario: "failover", Refused: "no replica"},
	}
	var b strings.Builder
	if err := WriteTable(&b, cells); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| basic | gc-pause | 18/20 · 4/5 | 0/20 · 0/5 | 0/20 · 1/5 | **no** (promptness) | sim 18/20 (90%, 70–97%); real 4/5 (80%, 38–96%) |",
		"| fenced | steady | 0/20 · 0/5 | 0/20 · 2/5 | 0/20 · 0/5 | **no** (liveness) |",
		"0 of 2 cells agree on every kind of claim.",
		"| redsync-1 | gc-pause | 5/5 | — | — | real 5/5 (100%, 57–100%) |",
		"- `failover` (basic, redsync-1): no replica",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	back, err := ParseTable(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range back.Cells[:3] {
		w := cells[[]int{0, 1, 3}[i]]
		if c.Sim != w.Sim || c.Real != w.Real {
			t.Errorf("row %d read back as %+v / %+v, want %+v / %+v", i, c.Sim, c.Real, w.Sim, w.Real)
		}
	}
	// A cell made before kinds were counted agrees over any claim, and says so.
	old := Cell{Pattern: "basic", Scenario: "steady", Sim: Tally{Runs: 20}, Real: Tally{Runs: 5, Violated: 2}}
	b.Reset()
	if err := WriteTable(&b, []Cell{old}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| basic | steady | not counted | not counted | not counted | **no** (any claim) |") {
		t.Errorf("a cell without kinds:\n%s", b.String())
	}
}

// TestCountUnfired: a run in which a fault of its scenario did not fire
// tested less than the scenario says; the tally counts such runs, and the
// table says so beside the rate, which reads back.
func TestCountUnfired(t *testing.T) {
	fired := &Result{}
	fired.Faults = []sim.FaultFiring{{Fault: "failover n1 on=c1:acquired", Fired: true}}
	missed := &Result{}
	missed.Faults = []sim.FaultFiring{{Fault: "failover n1 on=c1:acquired", Why: "c1 never reached acquired"}}
	broke := &Result{}
	broke.Faults, broke.Violated = missed.Faults, []string{"mutex"}
	got := Count([]*Result{fired, missed, broke})
	if got != (Tally{Runs: 3, Violated: 1, Unfired: 2, Kinds: KindCounts{Safety: 1}}) {
		t.Fatalf("tally %+v, want 3 runs, 1 violated, 2 with a fault that did not fire", got)
	}
	text := rateText(got)
	if !strings.Contains(text, "2 with a fault unfired") {
		t.Errorf("rate text %q does not say 2 runs missed a fault", text)
	}
	back, err := parseRate(text)
	got.Kinds = KindCounts{} // the markdown of tables before agreement.json has no kinds
	if err != nil || back != got {
		t.Errorf("read back %+v (%v), want %+v", back, err, got)
	}
}

// TestCountByKind: a run is counted under each kind of claim it broke, so
// a late loss notice (promptness) never reads as a broken mutex; a cell
// made before kinds were counted says so instead of reading clean.
func TestCountByKind(t *testing.T) {
	run := func(violated ...string) *Result { r := &Result{}; r.Violated = violated; return r }
	got := Count([]*Result{run("loss-signal"), run("mutex", "safe-store", "loss-signal"), run("progress"), run()})
	want := Tally{Runs: 4, Violated: 3, Kinds: KindCounts{Safety: 1, Liveness: 1, Promptness: 2}}
	if got != want {
		t.Fatalf("tally %+v, want %+v", got, want)
	}
	for k, n := range map[string]int{"safety": 1, "liveness": 1, "promptness": 2} {
		if v, ok := got.Kind(k); v != n || !ok {
			t.Errorf("Kind(%s) = %d, %v; want %d, true", k, v, ok, n)
		}
	}
	if _, ok := (Tally{Runs: 5, Violated: 2}).Kind("safety"); ok {
		t.Error("a tally made before kinds were counted, with violations, says it counted them")
	}
	if v, ok := (Tally{Runs: 5}).Kind("safety"); v != 0 || !ok {
		t.Errorf("a clean tally: Kind = %d, %v; want 0, true", v, ok)
	}
}
