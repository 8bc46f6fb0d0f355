package broken_test

import (
	"testing"

	"github.com/locksim/locksim/pattern"
)

// TestVariantsCaught runs every scenario on its broken variant, which must
// show a violation, and on the correct pattern the variant imitates, which
// must show none (no false alarm).
func TestVariantsCaught(t *testing.T) {
	for _, s := range scenarios {
		t.Run(s.variant, func(t *testing.T) {
			v := s.run(newEnv(t, s.variant, s.ttl))
			if v == "" {
				t.Fatalf("%s: no violation of %s: the scenario does not catch the pitfall", s.variant, s.claim)
			}
			t.Logf("%s caught (%s): %s", s.variant, s.claim, v)
		})
		t.Run(s.variant+"/correct="+s.correct, func(t *testing.T) {
			if v := s.run(newEnv(t, s.correct, s.ttl)); v != "" {
				t.Fatalf("%s, the correct pattern, flagged: %s", s.correct, v)
			}
		})
	}
}

// caughtElsewhere names the broken variants whose own tests catch them
// (in this package, or in package sim where the bug is one of liveness and
// needs the simulator's scheduler), with those tests.
var caughtElsewhere = map[string]string{
	"watchdog-zombie-renewal": "sim.TestZombieRenewalStallsTheLock",
	"watchdog-late-done":      "sim.TestLateDoneVariantCaught, sim.TestOnlyTheLossSignalSeesALateDone",
	"fair-clock-queue":        "TestSeedFairClockSkewReordersQueue, TestSeedFairAbandonedWaiterBlocks",
	"rwlock-shared-count":     "TestSeedRWAnyoneReleasesRead, TestSeedRWWriterStarved",
}

// TestEveryVariantHasAScenario: every broken pattern in the catalog is
// caught by a scenario (or by the tests caughtElsewhere names), breaks a
// claim it is registered with (so the gate expects that claim of it), and
// imitates a correct pattern that makes the same claim.
func TestEveryVariantHasAScenario(t *testing.T) {
	byName := map[string]scenario{}
	for _, s := range scenarios {
		byName[s.variant] = s
	}
	broken := 0
	for _, p := range pattern.All() {
		if !p.Broken {
			continue
		}
		if _, ok := caughtElsewhere[p.Name]; ok {
			continue
		}
		broken++
		s, ok := byName[p.Name]
		if !ok {
			t.Errorf("broken variant %q has no scenario that catches it", p.Name)
			continue
		}
		if p.Pitfall == "" || p.Summary == "" || p.Nodes < 1 || p.New == nil {
			t.Errorf("%s: registered without Pitfall, Summary, Nodes or New: %+v", p.Name, p)
		}
		if !claimOf(p.Claims, s.claim) {
			t.Errorf("%s: its scenario breaks %q, which it does not claim (%+v)", p.Name, s.claim, p.Claims)
		}
		c, err := pattern.Lookup(s.correct)
		if err != nil || c.Broken || !claimOf(c.Claims, s.claim) {
			t.Errorf("%s: counterpart %q (%v) must be a correct pattern claiming %q", p.Name, s.correct, err, s.claim)
		}
	}
	if broken != len(scenarios) {
		t.Errorf("catalog has %d broken variants, scenarios cover %d", broken, len(scenarios))
	}
}
