package locks_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/model"
)

// singleKind selects the single-key pattern a singleMachine drives.
type singleKind int

const (
	kindBasic singleKind = iota
	kindFenced
	kindWatchdog
)

// singleMachine drives Basic, Fenced or Watchdog lockers of several owners
// on one node beside a model.Lock keyed by lease token (every acquisition
// is its own owner: the patterns check tokens, not clients).
type singleMachine struct {
	w         *rapidWorld
	kind      singleKind
	key       string
	ttl       time.Duration
	valid     time.Duration
	renew     time.Duration
	lockers   []locks.Locker
	m         *model.Lock
	leases    []*trackedLease
	lastFence int64
}

func newSingleMachine(t *rapid.T, w *rapidWorld, kind singleKind) *singleMachine {
	w.reset(t)
	ttl := rapidTTL(t)
	s := &singleMachine{w: w, kind: kind, key: "res", ttl: ttl, valid: grantValidity(ttl), renew: max(ttl/3, time.Millisecond)}
	m, err := model.NewLock(model.LockSpec{TTL: ttl, Fencing: kind == kindFenced})
	if err != nil {
		t.Fatal(err)
	}
	s.m = m
	seed := rapid.Uint64().Draw(t, "seed")
	for i := range rapidOwners {
		l, err := s.newLocker(w.options(ttl, seed, i))
		if err != nil {
			t.Fatal(err)
		}
		s.lockers = append(s.lockers, l)
	}
	if kind == kindFenced {
		s.key = locks.FencedLockKey("res")
	}
	return s
}

func (s *singleMachine) newLocker(o locks.Options) (locks.Locker, error) {
	r := s.w.nodes[0]
	switch s.kind {
	case kindFenced:
		return locks.NewFenced(r, "res", o)
	case kindWatchdog:
		return locks.NewWatchdog(r, "res", o)
	default:
		return locks.NewBasic(r, "res", o)
	}
}

func (s *singleMachine) actions() map[string]func(*rapid.T) {
	a := map[string]func(*rapid.T){
		"acquire": s.acquire,
		"release": s.release,
		"advance": s.advance,
		"restart": s.restart,
		"":        s.check,
	}
	if s.kind != kindWatchdog {
		a["extend"] = s.extend
	}
	return a
}

func (s *singleMachine) acquire(t *rapid.T) {
	i := rapid.IntRange(0, rapidOwners-1).Draw(t, "owner")
	_, held := s.m.Holder()
	l, err := s.lockers[i].Acquire(context.Background())
	if err != nil {
		if held == 0 || !errors.Is(err, locks.ErrNotAcquired) {
			t.Fatalf("o%d Acquire = %v; model holds %d, want success when free, else ErrNotAcquired", i, err, held)
		}
		return
	}
	g := s.m.Acquire(l.Token)
	if !g.OK {
		t.Fatalf("o%d Acquire succeeded (%s) but the model's lock is held", i, l.Token)
	}
	if l.Fence != g.Fence || l.Count != 1 {
		t.Fatalf("o%d lease fence %d count %d, want fence %d count 1", i, l.Fence, l.Count, g.Fence)
	}
	if s.kind == kindFenced && l.Fence <= s.lastFence {
		t.Fatalf("fence %d after %d: not strictly increasing", l.Fence, s.lastFence)
	}
	s.lastFence = max(s.lastFence, l.Fence)
	now := s.w.now()
	s.leases = append(s.leases, &trackedLease{l: l, owner: i, until: now + s.valid, renewAt: now + s.renew})
}

// release gives back any lease ever issued: current, expired, released.
func (s *singleMachine) release(t *rapid.T) {
	if len(s.leases) == 0 {
		t.Skip("no lease yet")
	}
	tl := drawFrom(t, s.leases, "lease")
	err := s.lockers[tl.owner].Release(context.Background(), tl.l)
	_, ok := s.m.Release(tl.l.Token)
	tl.ended = true
	if ok && err != nil {
		t.Fatalf("Release(%s) = %v, want nil: it held the lock", tl.l.Token, err)
	}
	if !ok {
		requireNotHeld(t, "Release("+tl.l.Token+") by a non-holder", err)
	}
}

func (s *singleMachine) extend(t *rapid.T) {
	if len(s.leases) == 0 {
		t.Skip("no lease yet")
	}
	tl := drawFrom(t, s.leases, "lease")
	err := s.lockers[tl.owner].(locks.Extender).Extend(context.Background(), tl.l)
	now := s.w.now()
	if !tl.relied(now) { // refused by the client, nothing sent
		requireNotHeld(t, "Extend of a lease not relied on", err)
		tl.ended = true
		return
	}
	if !s.m.Extend(tl.l.Token) {
		requireNotHeld(t, "Extend("+tl.l.Token+") by a non-holder", err)
		tl.ended = true
		return
	}
	if err != nil {
		t.Fatalf("Extend(%s) = %v, want nil: it holds the lock", tl.l.Token, err)
	}
	tl.until = now + s.valid
}

// advance moves time, stepping the model through every watchdog renewal
// due meanwhile, as the real watchdogs run them.
func (s *singleMachine) advance(t *rapid.T) {
	d := drawAdvance(t, s.ttl)
	target := s.w.now() + d
	advance(t, s.w.clk, d)
	for {
		tl := s.nextRenewal(target)
		if tl == nil {
			break
		}
		s.m.Advance(tl.renewAt - s.m.Now())
		s.renewed(tl)
	}
	s.m.Advance(target - s.m.Now())
}

func (s *singleMachine) nextRenewal(target time.Duration) *trackedLease {
	if s.kind != kindWatchdog {
		return nil
	}
	var next *trackedLease
	for _, tl := range s.leases {
		if !tl.ended && tl.renewAt <= target && (next == nil || tl.renewAt < next.renewAt) {
			next = tl
		}
	}
	return next
}

// renewed applies one watchdog wake-up: the loss is detected without a
// request once the validity ran out, or when the renewal is refused.
func (s *singleMachine) renewed(tl *trackedLease) {
	at := tl.renewAt
	if at >= tl.until || !s.m.Extend(tl.l.Token) {
		tl.ended = true
		return
	}
	tl.until = at + s.valid
	tl.renewAt = at + s.renew
}

// restart is the node restarting without persistence: it forgets the lock
// and the fence counter. No single-node pattern keeps mutual exclusion (or,
// for Fenced, increasing tokens) through that, so the leases granted before
// it leave the mutual-exclusion checks; their own view is still predicted
// (a watchdog learns of the loss at its next renewal).
func (s *singleMachine) restart(t *rapid.T) {
	s.w.servers[0].FlushAll()
	s.m.Restart(false)
	for _, tl := range s.leases {
		tl.exposed = true
	}
	s.lastFence = 0
}

func (s *singleMachine) check(t *rapid.T) {
	srv := s.w.servers[0]
	owner, n := s.m.Holder()
	switch got, _ := srv.Get(s.key); {
	case n == 0 && srv.Exists(s.key):
		t.Fatalf("key %s = %q, model: free", s.key, got)
	case n > 0 && got != owner:
		t.Fatalf("key %s = %q, model: held by %s", s.key, got, owner)
	case srv.TTL(s.key) != s.m.Remaining():
		t.Fatalf("key %s TTL %v, model %v", s.key, srv.TTL(s.key), s.m.Remaining())
	}
	if s.kind == kindFenced {
		checkFenceCounter(t, s.w, locks.FencedCounterKey("res"), s.m.Fence())
	}
	live := protected(checkLeaseViews(t, s.leases, s.w.now()))
	if len(live) > 1 {
		t.Fatalf("%d holders rely on the lock at %v: %s and %s", len(live), s.w.now(), live[0].l.Token, live[1].l.Token)
	}
	for _, tl := range live {
		if !s.m.Holds(tl.l.Token) {
			t.Fatalf("o%d relies on %s at %v, but the model says it does not hold the lock", tl.owner, tl.l.Token, s.w.now())
		}
	}
}

// checkFenceCounter: the counter is the model's and never expires.
func checkFenceCounter(t *rapid.T, w *rapidWorld, key string, want int64) {
	srv := w.servers[0]
	got, _ := srv.Get(key)
	if want == 0 && srv.Exists(key) || want > 0 && got != strconv.FormatInt(want, 10) {
		t.Fatalf("fence counter %s = %q, model %d", key, got, want)
	}
	if ttl := srv.TTL(key); ttl != 0 {
		t.Fatalf("fence counter %s has a TTL (%v): it must never expire", key, ttl)
	}
}

func runSingle(t *testing.T, kind singleKind) {
	w := newRapidWorld(t, 1)
	rapid.Check(t, func(t *rapid.T) {
		t.Repeat(newSingleMachine(t, w, kind).actions())
	})
}

func TestRapidBasic(t *testing.T)    { runSingle(t, kindBasic) }
func TestRapidFenced(t *testing.T)   { runSingle(t, kindFenced) }
func TestRapidWatchdog(t *testing.T) { runSingle(t, kindWatchdog) }
