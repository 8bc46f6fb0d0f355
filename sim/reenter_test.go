package sim

import (
	"testing"

	"github.com/locksim/locksim/sim/scenario"
)

// A re-entering workload: the counted reentrant patterns keep the lock
// through the inner release, the count-less variant does not; and a section
// whose nested entry fails (here: c1 cut off from the node right after its
// grant) is abandoned, not reported as an overlap of a correct pattern.
func TestReenterWorkload(t *testing.T) {
	nested, err := scenario.ParseString("start nodes=1 clients=3 ttl=500ms duration=2s\n" +
		"workload work=20ms jitter=5ms think=5ms prep=30ms retry=5ms reenter=yes\n")
	if err != nil {
		t.Fatal(err)
	}
	cut, err := scenario.ParseString("start nodes=1 clients=2 ttl=100ms duration=2s\n" +
		"workload reenter=yes\npartition c1|n1 on=c1:acquired for=300ms\n")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 4; seed++ {
		for _, name := range []string{"reentrant", "service"} {
			for _, sc := range []scenario.Scenario{nested, cut} {
				if r := run(t, lookupPattern(t, name), sc, seed); len(r.Violated) > 0 || r.Safety.Overlaps > 0 {
					t.Errorf("%s, reenter, seed %d: violated %v, %d overlaps; want none", name, seed, r.Violated, r.Safety.Overlaps)
				}
			}
		}
		if r := run(t, lookupPattern(t, "reentrant-nocount"), nested, seed); len(r.Violated) == 0 {
			t.Errorf("reentrant-nocount, reenter, seed %d: no violation; the inner release should free the lock", seed)
		}
	}
}
