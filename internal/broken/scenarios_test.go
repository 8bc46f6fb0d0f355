package broken_test

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/model"
	"github.com/locksim/locksim/pattern"
)

// scenario is one deterministic run that catches a broken variant: run on
// the variant it must report a violation of claim; run on the correct
// pattern the variant imitates it must report none.
type scenario struct {
	variant string // broken pattern, by catalog name
	correct string // the correct pattern run through the same steps
	claim   string // the claim the violation breaks: "mutex", "fencing", "safe-store"
	ttl     time.Duration
	run     func(e *env) string // the violation seen, or ""
}

var scenarios = []scenario{
	{"basic-del", "basic", "mutex", 100 * time.Millisecond, lateReleaseAfterTakeover},
	{"basic-shared-token", "basic", "mutex", 100 * time.Millisecond, lateReleaseAfterTakeover},
	{"redlock-shared-token", "redlock", "mutex", 100 * time.Millisecond, lateReleaseAfterTakeover},
	{"reentrant-nocount", "reentrant", "mutex", 100 * time.Millisecond, innerReleaseThenRival},
	{"watchdog-renew-ttl", "watchdog", "mutex", 300 * time.Millisecond, rivalWhileWatched},
	{"service-seconds", "service", "mutex", 500 * time.Millisecond, rivalRightAfterAcquire},
	{"fenced-volatile", "fenced", "fencing", 100 * time.Millisecond, pausedPastCounter},
	{"redlock-novalidity", "redlock", "mutex", 100 * time.Millisecond, slowQuorumThenRival},
	{"redlock-fenced-pernode", "fenced", "fencing", 100 * time.Millisecond, quorumsInTurn},
}

// lateReleaseAfterTakeover: A outlives its TTL, B takes the lock, A's late
// release deletes B's key, C acquires while B still relies on its lease.
func lateReleaseAfterTakeover(e *env) string {
	a, b, c := e.locker(), e.locker(), e.locker()
	e.mustAcquire(a, "A")
	e.advance(e.ttl)
	e.mustAcquire(b, "B")
	_ = e.release(a, "A")
	e.acquire(c, "C")
	return e.twoHolders("B", "C")
}

// innerReleaseThenRival: the owner enters twice and leaves the inner
// section; a rival tries while the outer section still runs.
func innerReleaseThenRival(e *env) string {
	a, b := e.locker(), e.locker()
	e.mustAcquire(a, "outer")
	e.mustAcquire(a, "inner")
	if err := e.release(a, "inner"); err != nil {
		e.t.Fatalf("%s: inner Release = %v, want nil", e.p.Name, err)
	}
	e.acquire(b, "B")
	return e.twoHolders("outer", "B")
}

// rivalWhileWatched: A holds and never releases; its watchdog should keep
// the lock for as long as A runs. A rival tries every TTL/6 for two TTLs.
func rivalWhileWatched(e *env) string {
	a, b := e.locker(), e.locker()
	e.mustAcquire(a, "A")
	step := e.ttl / 6
	for at := step; at <= 2*e.ttl; at += step {
		e.advance(step)
		if e.acquire(b, "B") {
			return fmt.Sprintf("B took the lock at %v while A had not released it (A's lease: %v)", at, e.lease["A"].Err())
		}
	}
	return ""
}

// rivalRightAfterAcquire: a rival tries the instant after A acquired.
func rivalRightAfterAcquire(e *env) string {
	a, b := e.locker(), e.locker()
	e.mustAcquire(a, "A")
	exists := e.b.Server(0).Exists("res")
	e.acquire(b, "B")
	if v := e.twoHolders("A", "B"); v != "" {
		return fmt.Sprintf("%s (the key existed right after A's Acquire: %v)", v, exists)
	}
	return ""
}

// pausedPastCounter: A pauses past its TTL, nobody holds the lock for a
// TTL, B acquires and writes, then A wakes and writes to a store that
// checks fencing tokens.
func pausedPastCounter(e *env) string {
	a, b := e.locker(), e.locker()
	e.mustAcquire(a, "A")
	e.advance(e.ttl)
	e.mustAcquire(b, "B")
	fa, fb := e.lease["A"].Fence, e.lease["B"].Fence
	store := &model.FencedStore{Checking: true}
	okB := store.Write(fb, 2)
	okA := store.Write(fa, 1)
	var v []string
	if fb <= fa {
		v = append(v, fmt.Sprintf("B's fence %d after A's %d: tokens repeat", fb, fa))
	}
	if okA && okB {
		v = append(v, "the checking store took A's stale write after B's: B's update is lost")
	}
	return strings.Join(v, "; ")
}

// slowQuorumThenRival: every node takes 30ms to reach, so A's quorum is
// complete only 1.5 TTLs after its first request; 50ms later a rival asks
// the now fast nodes.
func slowQuorumThenRival(e *env) string {
	a, b := e.locker(), e.locker()
	for _, n := range e.nodes {
		n.delay = 30 * time.Millisecond
	}
	e.acquire(a, "A")
	for _, n := range e.nodes {
		n.delay = 0
	}
	e.advance(50 * time.Millisecond)
	e.acquire(b, "B")
	return e.twoHolders("A", "B")
}

// quorumsInTurn: three acquisitions, each with two nodes down ({3,4},
// {0,1}, {2,4}), so each quorum shares only some nodes with the one
// before. A single-node pattern runs the same three acquisitions.
func quorumsInTurn(e *env) string {
	c := e.locker()
	var fences []int64
	for i, down := range [][]int{{3, 4}, {0, 1}, {2, 4}} {
		if len(e.nodes) > 1 {
			e.down(down...)
		}
		name := fmt.Sprintf("Q%d", i+1)
		e.mustAcquire(c, name)
		fences = append(fences, e.lease[name].Fence)
		_ = e.release(c, name)
	}
	e.down()
	for i := 1; i < len(fences); i++ {
		if fences[i] <= fences[i-1] {
			return fmt.Sprintf("fences %v: not strictly increasing across quorums", fences)
		}
	}
	return ""
}

// claimOf reports whether claims includes the named claim.
func claimOf(c pattern.Claims, name string) bool {
	var have []string
	if c.Mutex {
		have = append(have, "mutex")
	}
	if c.Fencing {
		have = append(have, "fencing")
	}
	if c.SafeStore {
		have = append(have, "safe-store")
	}
	return slices.Contains(have, name)
}
