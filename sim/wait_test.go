package sim

import (
	"bytes"
	"strings"
	"testing"
)

// waitScenario is a failover 2ms after c1's third acquire request, with
// replication 30ms behind, for a lock that WAITs for one replica.
const waitScenario = "start clients=2 ttl=100ms duration=1s\nreplicas n=2 delay=30ms\npattern wait-replicas=1 wait-timeout=50ms\nfailover n1 on=c1:acquire-sent n=3 after=2ms\n"

// TestSameSeedSameBytesWait: runs whose locks WAIT for replicas (parked
// WAITs, their timeouts, a failover that resets their connections) write
// the same bytes twice with one seed.
func TestSameSeedSameBytesWait(t *testing.T) {
	for _, tc := range []struct{ pattern, text string }{
		{"basic", waitScenario},
		{"watchdog", waitScenario},
		{"fenced", waitScenario},
		{"watchdog-fenced", strings.Replace(waitScenario, "wait-timeout=50ms", "wait-timeout=10ms", 1)},
		{"basic", "start clients=3 ttl=100ms duration=1s\nreplicas n=2 delay=exp(10ms)\npattern wait-replicas=2 wait-timeout=20ms\ncrash n1 at=300ms for=10ms persist=always\n"},
	} {
		p := lookupPattern(t, tc.pattern)
		s := parseScenario(t, tc.text)
		first, second := output(t, p, s, 42), output(t, p, s, 42)
		if !bytes.Equal(first, second) {
			t.Errorf("%s under %q, seed 42: two runs differ (first difference at byte %d)", tc.pattern, tc.text, firstDiff(first, second))
		}
		if !bytes.Contains(first, []byte("WAIT ")) {
			t.Errorf("%s under %q: the trace has no WAIT", tc.pattern, tc.text)
		}
	}
}

// TestWaitHoldsWhereAsyncReplicationBreaks: under a failover while the
// replica lags 30ms, basic without WAIT breaks mutual exclusion for seed 1
// and with WAIT holds it for seeds 1..20 and 195: the grant counts only
// once the replica has it, and a WAIT that dies with the old primary gives
// it up. In seed 195 c2's grant reaches the old primary, its reply comes
// back after the failover and its WAIT goes to the new primary: counting
// the new primary's acknowledgements there made c2 a second holder, until
// a connection's WAIT after a failover failed with a reset.
func TestWaitHoldsWhereAsyncReplicationBreaks(t *testing.T) {
	p := lookupPattern(t, "basic")
	plain := parseScenario(t, strings.Replace(waitScenario, "pattern wait-replicas=1 wait-timeout=50ms\n", "", 1))
	res, err := Run(Config{Pattern: p, Scenario: plain, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Safety.Overlaps == 0 {
		t.Errorf("without WAIT, seed 1: no overlap, want the failover to hand c1's lock to c2")
	}
	waiting := parseScenario(t, waitScenario)
	for _, seed := range []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 195} {
		res, err := Run(Config{Pattern: p, Scenario: waiting, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if res.Safety.Overlaps != 0 || res.Liveness.Acquisitions == 0 {
			t.Errorf("with WAIT, seed %d: %d overlaps, %d acquisitions; want none and some", seed, res.Safety.Overlaps, res.Liveness.Acquisitions)
		}
	}
}
