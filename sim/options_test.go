package sim

import (
	"fmt"
	"testing"
	"time"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/sim/scenario"
)

// TestPatternDirectiveReachesTheLocker: the scenario's pattern line is
// what every client's locker is built with.
func TestPatternDirectiveReachesTheLocker(t *testing.T) {
	s, err := scenario.ParseString("start clients=2 duration=100ms\n" +
		"pattern ttl=300ms renew-every=90ms drift=0.05 node-timeout=7ms retry-attempts=4 retry-delay=3ms retry-max-delay=30ms\n")
	if err != nil {
		t.Fatal(err)
	}
	var got []locks.Options
	watchdog := lookupPattern(t, "watchdog") // a pattern that renews: it takes renew-every
	p := watchdog
	p.Name = "capture"
	p.New = func(nodes []locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		got = append(got, o)
		return watchdog.New(nodes, k, o)
	}
	if _, err := Run(Config{Pattern: p, Scenario: s, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d lockers built, want 2", len(got))
	}
	want := locks.Retry{Attempts: 4, Delay: 3 * time.Millisecond, MaxDelay: 30 * time.Millisecond}
	for i, o := range got {
		if o.TTL != 300*time.Millisecond || o.RenewEvery != 90*time.Millisecond || o.DriftFactor != 0.05 ||
			o.NodeTimeout != 7*time.Millisecond || o.Retry != want {
			t.Errorf("client %d: TTL %v RenewEvery %v DriftFactor %v NodeTimeout %v Retry %+v; want the pattern line's",
				i+1, o.TTL, o.RenewEvery, o.DriftFactor, o.NodeTimeout, o.Retry)
		}
	}
}

// TestServiceWithOwnSettings: Service with TTL 30s renewed every 10s keeps
// its lock through a 12s pause; with TTL 10s the same pause breaks it.
func TestServiceWithOwnSettings(t *testing.T) {
	const text = "start clients=2 duration=1m\n" +
		"workload work=1s jitter=0s think=100ms acquire-timeout=40s retry=100ms\n" +
		"pattern ttl=%s renew-every=%s\n" +
		"pause c1 on=write for=12s\n"
	p := lookupPattern(t, "service")
	for _, tc := range []struct {
		ttl, renew string
		overlap    bool
	}{{"30s", "10s", false}, {"10s", "3s", true}} {
		s, err := scenario.ParseString(fmt.Sprintf(text, tc.ttl, tc.renew))
		if err != nil {
			t.Fatal(err)
		}
		r := run(t, p, s, 1)
		if got := r.Safety.Overlaps > 0; got != tc.overlap {
			t.Errorf("ttl=%s renew-every=%s: %s\nwant overlap=%v", tc.ttl, tc.renew, r.Summary(), tc.overlap)
		}
	}
}
