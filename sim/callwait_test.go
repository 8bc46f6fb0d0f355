package sim

import (
	"slices"
	"testing"
)

// TestCallPointFaultsLeaveTheCallAlive: a fault fired at the moment one of
// c1's calls is sent (without after=) or its reply arrives yields c1
// there; the call must still end on its reply, timeout or deadline. Before
// the mechanism kept a call's Waker across that Yield, every KIND-sent
// point (and acquire-attempt, which fires at a send) parked the call for
// ever: c1 made one acquisition in 5s, or none, and the run said "ok".
// Every call kind and both points, each run once as the issue found it.
func TestCallPointFaultsLeaveTheCallAlive(t *testing.T) {
	for _, tc := range []struct{ pattern, point, workload string }{
		{"basic", "acquire-sent", ""}, {"basic", "acquire-reply", ""}, {"basic", "acquire-attempt", ""},
		{"basic", "release-sent", ""}, {"basic", "release-reply", ""},
		{"basic", "extend-sent", " extend-every=10ms"}, {"basic", "extend-reply", " extend-every=10ms"},
		{"basic", "read-sent", ""}, {"basic", "read-reply", ""},
		{"basic", "write-sent", ""}, {"basic", "write-reply", ""},
		{"watchdog", "release-sent", ""}, {"watchdog", "write-sent", ""},
		{"watchdog", "renew-sent", " work=50ms"}, {"watchdog", "renew-reply", " work=50ms"},
		{"redlock", "acquire-sent", ""}, {"redlock", "release-sent", ""},
	} {
		t.Run(tc.pattern+"/"+tc.point, func(t *testing.T) {
			work := "20ms"
			if tc.workload == " work=50ms" {
				work, tc.workload = "50ms", ""
			}
			s := parseScenario(t, "start nodes=1 clients=2 ttl=100ms duration=5s\n"+
				"workload work="+work+" jitter=10ms think=10ms prep=0s check=yes acquire-timeout=1s retry=10ms"+tc.workload+"\n"+
				"pause c2 at=0s for=5ms\npause c2 on=c1:"+tc.point+" for=1ms\n")
			p := lookupPattern(t, tc.pattern)
			if tc.pattern == "redlock" {
				s = parseScenario(t, "start nodes=3 clients=2 ttl=100ms duration=5s\n"+
					"workload work="+work+" jitter=10ms think=10ms prep=0s check=yes acquire-timeout=1s retry=10ms\n"+
					"pause c2 at=0s for=5ms\npause c2 on=c1:"+tc.point+" for=1ms\n")
			}
			res, err := Run(Config{Pattern: p, Scenario: s, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Faults[1].Fired {
				t.Fatalf("the fault on %s did not fire: %s", tc.point, res.Faults[1].Why)
			}
			c1 := res.Clients[0]
			if c1.Acquisitions < 20 || slices.Contains(res.Liveness.Stuck, "c1") {
				t.Errorf("c1: %d acquisitions in 5s, stuck %v: want its calls to end and the workload to go on", c1.Acquisitions, res.Liveness.Stuck)
			}
		})
	}
}
