package sim

import (
	"strings"
	"testing"
)

// TestCallPointsFire: a fault can wait for a request of a kind of call to
// be sent or its reply to arrive; each fires in a run that makes such a
// call, and renew-* only for a pattern that renews in the background.
func TestCallPointsFire(t *testing.T) {
	for _, tc := range []struct{ pattern, point string }{
		{"basic", "acquire-sent"}, {"basic", "acquire-reply"}, {"basic", "release-sent"}, {"basic", "release-reply"},
		{"basic", "read-sent"}, {"basic", "read-reply"}, {"basic", "write-sent"}, {"basic", "write-reply"},
		{"watchdog", "renew-sent"}, {"watchdog", "renew-reply"}, {"redlock", "acquire-reply"},
	} {
		s := parseScenario(t, "start clients=2 duration=1s\nworkload work=60ms\nslow c1 on="+tc.point+" n=2 for=1ms\n")
		r := run(t, lookupPattern(t, tc.pattern), s, 1)
		if !r.Faults[0].Fired {
			t.Errorf("%s on=%s: did not fire: %s", tc.pattern, tc.point, r.Faults[0].Why)
		}
	}
	s := parseScenario(t, "start clients=2 duration=1s\nslow c1 on=renew-sent for=1ms\n")
	if f := run(t, lookupPattern(t, "basic"), s, 1).Faults[0]; f.Fired || !strings.Contains(f.Why, "c1 never reached renew-sent") {
		t.Errorf("basic on=renew-sent: %+v, want not fired: basic renews nothing", f)
	}
}

// TestExtendPointsAreTheManualExtension: extend-sent counts the workload's
// own Extend calls, renew-sent none of them.
func TestExtendPointsAreTheManualExtension(t *testing.T) {
	s := parseScenario(t, "start clients=1 duration=500ms\nworkload work=90ms extend-every=30ms\nslow c1 on=extend-sent n=3 for=1ms\nslow c1 on=renew-sent for=1ms\n")
	r := run(t, lookupPattern(t, "basic"), s, 1)
	if !r.Faults[0].Fired || r.Faults[1].Fired {
		t.Errorf("faults %+v: want extend-sent fired, renew-sent not", r.Faults)
	}
}

// TestPauseAsTheGrantArrives: c1 pauses 1.5 TTL the moment the first
// grant's reply arrives, before Acquire sees it. Basic's validity check
// (measured from before the request) refuses the stale grant; no overlap.
func TestPauseAsTheGrantArrives(t *testing.T) {
	s := parseScenario(t, "start clients=2 duration=1s\npause c1 on=acquire-reply for=150ms\n")
	r := run(t, lookupPattern(t, "basic"), s, 1)
	if !r.Faults[0].Fired || len(r.Violated) != 0 {
		t.Errorf("%s: fired %v: want the pause fired and no violation", r.Summary(), r.Faults[0].Fired)
	}
}
