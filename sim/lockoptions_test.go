package sim

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/sim/scenario"
)

// TestClientLockOptionsAreTheScenarios: every simulated client's lock is
// built with the scenario's LockOptions — the one mapping from a scenario
// to lock options, which real mode's client processes use too — plus its
// own Clock and Rand, and nothing else: a mapping of the simulator's own
// that drifted from it (a field dropped, a default of its own) fails here.
func TestClientLockOptionsAreTheScenarios(t *testing.T) {
	for _, text := range []string{
		"start clients=2 duration=100ms\n",
		"start clients=3 ttl=300ms duration=100ms\nworkload retry=7ms\nreplicas n=1 delay=1ms\n" +
			"pattern renew-every=90ms drift=0.02 node-timeout=15ms retry-attempts=4 retry-max-delay=80ms wait-replicas=1 wait-timeout=20ms\n",
	} {
		sc, err := scenario.ParseString(text)
		if err != nil {
			t.Fatal(err)
		}
		watchdog := lookupPattern(t, "watchdog")
		p := watchdog
		p.Name = "capture"
		var got []locks.Options
		p.New = func(nodes []locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			got = append(got, o)
			return watchdog.New(nodes, k, o)
		}
		if _, err := Run(Config{Pattern: p, Scenario: sc, Seed: 1}); err != nil {
			t.Fatal(err)
		}
		if len(got) != sc.Clients {
			t.Fatalf("%d lockers built, want %d", len(got), sc.Clients)
		}
		want := sc.LockOptions()
		for i, o := range got {
			if o.Clock == nil || o.Rand == nil {
				t.Errorf("client %d: Clock %v, Rand %v; want the client's own", i+1, o.Clock, o.Rand)
			}
			if d := cmp.Diff(want, o, cmpopts.IgnoreFields(locks.Options{}, "Clock", "Rand"), cmpopts.IgnoreUnexported(locks.Options{})); d != "" {
				t.Errorf("%q: client %d's options differ from the scenario's LockOptions (-want +got):\n%s", text, i+1, d)
			}
		}
	}
}
