package lockstest

import (
	"strings"
	"testing"
	"time"
)

// TestVoidAttemptsAreMadeAgain: an attempt of a property that failed
// while the process stalled past TTL/4 is made again (at most three in
// all); one that failed without such a stall fails the property at once,
// as does a property that fails on every attempt.
func TestVoidAttemptsAreMadeAgain(t *testing.T) {
	const ttl = time.Second
	for _, c := range []struct {
		name     string
		stalls   []time.Duration // per attempt
		failures []bool          // per attempt: the check fails
		nilStall bool            // a backend in simulated time
		calls    int
		fail     bool
	}{
		{"stalled then clean", []time.Duration{time.Second, 0}, []bool{true, false}, false, 2, false},
		{"failed without a stall", []time.Duration{10 * time.Millisecond}, []bool{true, false}, false, 1, true},
		{"stalled on every attempt", []time.Duration{time.Second, time.Second, time.Second, time.Second}, []bool{true, true, true, true}, false, 3, true},
		{"simulated time", nil, []bool{true, false}, true, 1, true},
		{"passes", []time.Duration{time.Second}, []bool{false}, false, 1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			var stalled func() time.Duration
			if !c.nilStall {
				stalled = func() time.Duration { return c.stalls[calls-1] }
			}
			check := func(a testing.TB) {
				calls++
				if c.failures[calls-1] {
					a.Fatalf("lease expired on attempt %d", calls)
				}
			}
			outer := &attempt{TB: t} // records what would fail t
			done := make(chan struct{})
			go func() { // outer's FailNow ends this goroutine
				defer close(done)
				checkAttempts(outer, stalled, ttl, check)
			}()
			<-done
			if calls != c.calls || outer.Failed() != c.fail {
				t.Errorf("%d attempts, failed %v; want %d, %v (%q)", calls, outer.Failed(), c.calls, c.fail, outer.msgs)
			}
			if c.fail && !strings.Contains(strings.Join(outer.msgs, "\n"), "lease expired on attempt") {
				t.Errorf("a failed property's messages %q lack its attempt's", outer.msgs)
			}
		})
	}
}
