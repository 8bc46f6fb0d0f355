package sim

import (
	"testing"

	"github.com/locksim/locksim/history"
)

// TestRenewalsRecordedUnderTheLocksKey: a watchdog's renewals are recorded
// as Extend ops under the key the acquisitions name, for the fenced forms
// too, whose script renews {name}:lock (they were recorded under that key,
// apart from the acquisitions, and the lock model found an extension of a
// lock nobody held).
func TestRenewalsRecordedUnderTheLocksKey(t *testing.T) {
	for _, pat := range []string{"watchdog", "watchdog-fenced", "service-fenced"} {
		p := lookupPattern(t, pat)
		r := run(t, p, parseScenario(t, "start clients=2 duration=1s\nworkload work=60ms jitter=0s\n"), 1)
		extends := 0
		for _, op := range r.History.Ops {
			if op.Kind != history.Extend {
				continue
			}
			extends++
			if op.Key != Key {
				t.Errorf("%s: renewal recorded under %q, want %q (the acquisitions' key)", pat, op.Key, Key)
				break
			}
		}
		if extends == 0 {
			t.Errorf("%s: no renewal recorded in sections of 60ms under a 100ms TTL", pat)
		}
	}
}
