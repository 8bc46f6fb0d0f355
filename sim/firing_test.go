package sim

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/sim/scenario"
)

func parseScenario(t *testing.T, text string) scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestFaultFiringNamesEveryFaultThatDidNotFire(t *testing.T) {
	sc := parseScenario(t, `start nodes=1 clients=2 ttl=100ms duration=1s
pause c1 on=write for=150ms
crash n1 at=5s for=10ms
pause c2 on=write n=100000 for=10ms
`)
	r := run(t, lookupPattern(t, "basic"), sc, 1)
	if len(r.Faults) != 3 {
		t.Fatalf("Faults = %+v, want 3 entries", r.Faults)
	}
	if !r.Faults[0].Fired || r.Faults[0].At <= 0 || r.Faults[0].Why != "" {
		t.Errorf("Faults[0] = %+v, want fired at a positive time, no reason", r.Faults[0])
	}
	if f := r.Faults[1]; f.Fired || f.Fault != "crash n1 at=5s for=10ms persist=no" || f.Why != "the run ends at 1s" {
		t.Errorf("Faults[1] = %+v, want crash n1 at=5s for=10ms persist=no not fired: the run ends at 1s", f)
	}
	writes := r.Clients[1].Writes
	if f := r.Faults[2]; f.Fired || !strings.Contains(f.Why, "c2 reached write only ") || !strings.Contains(f.Why, "(n=100000)") {
		t.Errorf("Faults[2] = %+v, want not fired: c2 reached write only … times (n=100000); c2 wrote %d times", f, writes)
	}
	want := "faults fired: 1 of 3; crash n1 at=5s for=10ms persist=no did not fire: the run ends at 1s; pause c2 on=write n=100000 for=10ms did not fire: c2 reached write only"
	if got := r.FaultsSummary(); !strings.HasPrefix(got, want) {
		t.Errorf("FaultsSummary() = %q, want it to start %q", got, want)
	}
	if r.FaultsFired() != 1 || len(r.Unfired()) != 2 {
		t.Errorf("FaultsFired() = %d, Unfired() = %d entries, want 1 and 2", r.FaultsFired(), len(r.Unfired()))
	}
}

func TestFaultFiringOfEveryBuiltinUnderBasic(t *testing.T) {
	p := lookupPattern(t, "basic")
	for _, b := range scenario.Builtins() {
		sc := builtin(t, b.Name, p)
		r := run(t, p, sc, 1)
		if len(r.Faults) != len(sc.Faults) {
			t.Errorf("%s: %d firing records for %d faults", b.Name, len(r.Faults), len(sc.Faults))
		}
		for _, f := range r.Faults {
			if f.Fired == (f.Why != "") {
				t.Errorf("%s: %+v: a fault that fired has no reason, one that did not has one", b.Name, f)
			}
		}
	}
}

func TestFaultFiringIsDeterministic(t *testing.T) {
	sc := parseScenario(t, `start nodes=1 clients=2 ttl=100ms duration=500ms
pause c1 on=acquired n=3 for=150ms
crash n1 at=200ms for=50ms
`)
	p := lookupPattern(t, "basic")
	a, b := run(t, p, sc, 7), run(t, p, sc, 7)
	if a.FaultsSummary() != b.FaultsSummary() || a.FaultsSummary() != "faults fired: 2 of 2" {
		t.Errorf("FaultsSummary = %q then %q, want faults fired: 2 of 2 twice", a.FaultsSummary(), b.FaultsSummary())
	}
}
