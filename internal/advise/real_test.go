package advise

import (
	"slices"
	"strings"
	"testing"
)

// TestRealConfirmation: a pattern an answer names is confirmed on real
// Redis only when real mode ran it under some of the answer's scenarios
// and every such cell is fresh and agrees; a stale or disagreeing cell,
// or no cell at all, leaves it unconfirmed and says which; evidence
// without an agreement table says so in what was not judged.
func TestRealConfirmation(t *testing.T) {
	const flags = "--double-run store-checks-tokens --topology single-fsync-always --pauses above-ttl --work bounded --clocks stable --access exclusive"
	check := func(cells ...RealCell) RealCheck {
		t.Helper()
		e := synth(nil)
		e.RealSource = "locksim real --table reports/real/README.md"
		e.Real = cells
		a := answer(t, e, flags)
		if len(a.Use) == 0 || len(a.Real) != len(a.Use) {
			t.Fatalf("use %q, real %+v: want one check per pattern used", a.Use, a.Real)
		}
		for _, n := range a.NotJudged {
			if strings.Contains(n, "real Redis") {
				t.Errorf("with an agreement table, not judged still says %q", n)
			}
		}
		return a.Real[0]
	}
	used := answer(t, synth(nil), flags).Use[0]
	agree := func(s string) RealCell {
		return RealCell{Pattern: used, Scenario: s, Runs: 5, Agree: true, Commit: "abc123"}
	}
	rc := check(agree("delayed-reply"), agree("partition"))
	if rc.Pattern != used || !rc.Confirmed || !slices.Equal(rc.Agree, []string{"delayed-reply", "partition"}) ||
		!strings.Contains(rc.Text, "confirmed on real redis-server under delayed-reply, partition") || !strings.Contains(rc.Text, "not run on real Redis: lossy-link") {
		t.Errorf("two fresh agreeing cells: %+v; want confirmed under both, the others not run", rc)
	}
	stale := agree("partition")
	stale.Stale = "the lock's code changed since it was made"
	if rc := check(agree("delayed-reply"), stale); rc.Confirmed || !slices.Equal(rc.Stale, []string{"partition"}) || !strings.Contains(rc.Text, "not confirmed") {
		t.Errorf("a stale cell: %+v; want not confirmed, partition stale", rc)
	}
	no := agree("partition")
	no.Agree, no.Disagree = false, []string{"promptness"}
	if rc := check(agree("delayed-reply"), no); rc.Confirmed || !strings.Contains(rc.Text, "disagrees under partition (promptness)") {
		t.Errorf("a disagreeing cell: %+v; want not confirmed, partition named with its kind", rc)
	}
	if rc := check(); rc.Confirmed || !strings.Contains(rc.Text, "real mode ran none of its scenarios") {
		t.Errorf("no cell of the pattern: %+v; want not confirmed, none run", rc)
	}
	a := answer(t, synth(nil), flags)
	if len(a.Real) != 0 || !slices.ContainsFunc(a.NotJudged, func(s string) bool { return strings.Contains(s, "no agreement table") }) {
		t.Errorf("evidence without a table: real %+v, not judged %q; want it said not judged", a.Real, a.NotJudged)
	}
}
