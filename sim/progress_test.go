package sim

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

func TestProgressBound(t *testing.T) {
	for _, tc := range []struct {
		c    pattern.Claims
		want time.Duration
	}{
		{pattern.Claims{}, DefaultProgressTTLs * 100 * time.Millisecond},
		{pattern.Claims{Progress: 3}, 300 * time.Millisecond},
	} {
		if got := ProgressBound(tc.c, 100*time.Millisecond); got != tc.want {
			t.Errorf("ProgressBound(%+v, 100ms) = %v, want %v", tc.c, got, tc.want)
		}
	}
}

// parsed parses a scenario file's text.
func parsed(t *testing.T, text string) scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestZombieRenewalStallsTheLock: the watchdog whose renewal outlives its
// release keeps the key after its holder is gone; nobody acquires again
// and the progress oracle reports the stall, a violation of the progress
// claim. The correct watchdog, same scenario and seeds, is never stalled.
func TestZombieRenewalStallsTheLock(t *testing.T) {
	s := parsed(t, "start clients=3 duration=2s\n")
	zombie, correct := lookupPattern(t, "watchdog-zombie-renewal"), lookupPattern(t, "watchdog")
	for seed := uint64(1); seed <= 3; seed++ {
		r := run(t, zombie, s, seed)
		if r.Liveness.Stalls == 0 || !slices.Contains(r.Violated, "progress") {
			t.Fatalf("seed %d: %s\nstalls %d, want a stall and progress violated", seed, r.Summary(), r.Liveness.Stalls)
		}
		if v := firstOf(r, "stall"); v == nil || !strings.Contains(v.Detail, "still at the end of the run") {
			t.Errorf("seed %d: stall violation = %+v, want one open at the end of the run", seed, v)
		}
		if c := run(t, correct, s, seed); c.Liveness.Stalls != 0 || len(c.Violated) != 0 {
			t.Errorf("seed %d: watchdog: %s, stalls %d (longest %v): want none", seed, c.Summary(), c.Liveness.Stalls, c.Liveness.LongestStall)
		}
	}
}

// TestOutageStallsEveryPattern: every client cut off from the node for 10
// TTL leaves the lock free past the bound: a stall, whatever the pattern.
func TestOutageStallsEveryPattern(t *testing.T) {
	s := parsed(t, "start clients=2 duration=2s\npartition c1,c2|n1 at=500ms for=1s\n")
	r := run(t, lookupPattern(t, "basic"), s, 1)
	v := firstOf(r, "stall")
	if r.Liveness.Stalls != 1 || v == nil || !slices.Contains(r.Violated, "progress") {
		t.Fatalf("%s: stalls %d, violations %+v: want one stall, progress violated", r.Summary(), r.Liveness.Stalls, r.Violations)
	}
	if r.Liveness.LongestStall < time.Second {
		t.Errorf("LongestStall = %v, want at least the 1s outage", r.Liveness.LongestStall)
	}
}

// TestStarvedClientIsNoStall: one client cut off for the whole run starves
// while the other takes turns: Stuck, not a stall.
func TestStarvedClientIsNoStall(t *testing.T) {
	s := parsed(t, "start clients=2 duration=2s\npartition c1|n1 at=0s for=5s\n")
	r := run(t, lookupPattern(t, "basic"), s, 1)
	if !r.Liveness.Starved() || r.Liveness.Stalled() || len(r.Violated) != 0 {
		t.Errorf("%s: stuck %v, stalls %d, violated %v: want c1 starved and no stall", r.Summary(), r.Liveness.Stuck, r.Liveness.Stalls, r.Violated)
	}
}

func firstOf(r *Result, kind string) *Violation {
	for i := range r.Violations {
		if r.Violations[i].Kind == kind {
			return &r.Violations[i]
		}
	}
	return nil
}

// TestIdleLockIsNoStall: with think=2s each client takes the lock once and
// then wants nothing for two seconds; the lock is free meanwhile, but no
// client waits for it, so no stall is judged. The same clients cut off
// from the node while they want the lock are stalled: the oracle still
// counts the time in which some client waits.
func TestIdleLockIsNoStall(t *testing.T) {
	idle := parsed(t, "start clients=2 ttl=100ms duration=3s\nworkload think=2s work=20ms jitter=0s\n")
	for seed := uint64(1); seed <= 3; seed++ {
		r := run(t, lookupPattern(t, "basic"), idle, seed)
		if r.Liveness.Stalls != 0 || slices.Contains(r.Violated, "progress") {
			t.Errorf("seed %d: %s: stalls %d (longest %v), want none: no client wanted the lock", seed, r.Summary(), r.Liveness.Stalls, r.Liveness.LongestStall)
		}
		if r.Liveness.LongestStall >= time.Second {
			t.Errorf("seed %d: LongestStall = %v, want the idle think time left out", seed, r.Liveness.LongestStall)
		}
	}
	cut := parsed(t, "start clients=2 ttl=100ms duration=3s\nworkload think=2s work=20ms jitter=0s\npartition c1,c2|n1 at=0s for=1s\n")
	r := run(t, lookupPattern(t, "basic"), cut, 1)
	if r.Liveness.Stalls == 0 || !slices.Contains(r.Violated, "progress") {
		t.Errorf("%s: stalls %d, want the cut-off wait judged a stall", r.Summary(), r.Liveness.Stalls)
	}
}
