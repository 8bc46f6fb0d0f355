package sim

import (
	"bytes"
	"strings"
	"testing"
)

// failoverTwice fails n1 over at the start (nothing written: nothing lost)
// and again as c1 is granted its second lock, with n replicas per node.
func failoverTwice(n string) string {
	return "start clients=2 ttl=100ms duration=1s\nreplicas delay=50ms n=" + n + "\nfailover n1 at=0s\nfailover n1 on=c1:acquired n=2\n"
}

// TestFailoverChain: with two replicas the second failover promotes the
// second replica, which lacks c1's grant, and some seed sees two holders;
// with one the second failover finds no replica and none does.
func TestFailoverChain(t *testing.T) {
	p := lookupPattern(t, "basic")
	for _, tc := range []struct {
		n        string
		promoted int
		breaks   bool
	}{{"2", 2, true}, {"1", 1, false}} {
		broke := false
		for seed := uint64(1); seed <= 10; seed++ {
			var buf bytes.Buffer
			r, err := Run(Config{Pattern: p, Scenario: parseScenario(t, failoverTwice(tc.n)), Seed: seed, Trace: &buf})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(buf.String(), "the replica is primary"); got != tc.promoted {
				t.Fatalf("n=%s seed %d: %d promotions in the trace, want %d", tc.n, seed, got, tc.promoted)
			}
			broke = broke || r.Safety.Overlaps > 0
		}
		if broke != tc.breaks {
			t.Errorf("n=%s: some seed of 10 overlaps: %v, want %v", tc.n, broke, tc.breaks)
		}
	}
}

// TestReplicaLagDistributions: one client is granted the lock at once;
// n1 fails over 15ms in. Under a constant 20ms lag the replica never has
// the grant yet, whatever the seed; under exp(20ms) and uniform(20ms)
// each seed draws the lag, so over 12 seeds some promoted replicas have
// the grant and some do not.
func TestReplicaLagDistributions(t *testing.T) {
	p := lookupPattern(t, "basic")
	for _, tc := range []struct {
		lag    string
		varied bool
	}{{"20ms", false}, {"exp(20ms)", true}, {"uniform(20ms)", true}} {
		text := "start clients=1 ttl=100ms duration=100ms\nreplicas delay=" + tc.lag + "\nfailover n1 at=15ms\n"
		lost := map[string]bool{}
		for seed := uint64(1); seed <= 12; seed++ {
			var buf bytes.Buffer
			if _, err := Run(Config{Pattern: p, Scenario: parseScenario(t, text), Seed: seed, Trace: &buf}); err != nil {
				t.Fatal(err)
			}
			tr := buf.String()
			i := strings.Index(tr, " unreplicated write(s) lost")
			if i < 0 {
				t.Fatalf("%s seed %d: no failover in the trace", tc.lag, seed)
			}
			lost[tr[strings.LastIndex(tr[:i], " ")+1:i]] = true
		}
		if got := len(lost) > 1; got != tc.varied {
			t.Errorf("delay=%s: writes lost over 12 seeds %v; want them to vary: %v", tc.lag, lost, tc.varied)
		}
	}
}
