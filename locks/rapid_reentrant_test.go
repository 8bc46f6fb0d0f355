package locks_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/model"
)

// reentrantMachine drives Reentrant or Service lockers, one per owner
// ("o0", "o1", ...), beside a reentrant model.Lock keyed by owner id.
//
// The holder's view follows the patterns' documented holding: the leases
// of one continuous holding share its validity, refreshed by re-entry, a
// partial release, Extend and (Service) the watchdog's renewals; a first
// grant starts a new holding and ends the owner's previous one.
type reentrantMachine struct {
	w       *rapidWorld
	service bool
	ttl     time.Duration
	valid   time.Duration
	renew   time.Duration
	lockers []locks.Locker
	m       *model.Lock
	leases  []*reentrantLease
	cur     []*reentrantHolding // each owner's current holding, or nil
	gen     []int               // each owner's server-side holdings so far
}

// reentrantHolding is the machine's view of one continuous holding.
type reentrantHolding struct {
	owner   int
	until   time.Duration
	ended   bool
	renewAt time.Duration // next watchdog wake-up (Service)
	exposed bool          // began before a restart without persistence
}

// reentrantLease is one acquisition: its lease, its holding as the holder
// sees it, and its entry in the server's hash (gen: the owner's
// server-side holding it was recorded in; spent once released).
type reentrantLease struct {
	l     *locks.Lease
	h     *reentrantHolding
	gen   int
	spent bool
}

// entryLive reports whether hl's entry is still in the hash: not released,
// and recorded in the holding the owner still has on the server.
func (s *reentrantMachine) entryLive(hl *reentrantLease) bool {
	who, n := s.m.Holder()
	return !hl.spent && n > 0 && who == ownerID(hl.h.owner) && hl.gen == s.gen[hl.h.owner]
}

func (h *reentrantHolding) relied(now time.Duration) bool { return !h.ended && now < h.until }

func newReentrantMachine(t *rapid.T, w *rapidWorld, service bool) *reentrantMachine {
	w.reset(t)
	ttl := rapidTTL(t)
	s := &reentrantMachine{w: w, service: service, ttl: ttl, valid: grantValidity(ttl), renew: max(ttl/3, time.Millisecond),
		cur: make([]*reentrantHolding, rapidOwners), gen: make([]int, rapidOwners)}
	m, err := model.NewLock(model.LockSpec{TTL: ttl, Reentrant: true})
	if err != nil {
		t.Fatal(err)
	}
	s.m = m
	seed := rapid.Uint64().Draw(t, "seed")
	for i := range rapidOwners {
		o := w.options(ttl, seed, i)
		o.Owner = ownerID(i)
		var l locks.Locker
		if service {
			l, err = locks.NewService(w.nodes[0], "res", o)
		} else {
			l, err = locks.NewReentrant(w.nodes[0], "res", o)
		}
		if err != nil {
			t.Fatal(err)
		}
		s.lockers = append(s.lockers, l)
	}
	return s
}

func ownerID(i int) string { return fmt.Sprintf("o%d", i) }

func (s *reentrantMachine) actions() map[string]func(*rapid.T) {
	a := map[string]func(*rapid.T){
		"acquire": s.acquire,
		"release": s.release,
		"advance": s.advance,
		"restart": s.restart,
		"":        s.check,
	}
	if !s.service {
		a["extend"] = s.extend
	}
	return a
}

// acquire is a first acquisition or a re-entry, as the owner's state has it.
func (s *reentrantMachine) acquire(t *rapid.T) {
	i := rapid.IntRange(0, rapidOwners-1).Draw(t, "owner")
	if h := s.cur[i]; h == nil || !h.relied(s.w.now()) {
		s.dropStale(i)
	}
	l, err := s.lockers[i].Acquire(context.Background())
	g := s.m.Acquire(ownerID(i))
	if !g.OK {
		if !errors.Is(err, locks.ErrNotAcquired) {
			t.Fatalf("o%d Acquire = %v, want ErrNotAcquired (another owner holds it)", i, err)
		}
		return
	}
	if err != nil || l.Count != g.Count || l.Token != ownerID(i) {
		t.Fatalf("o%d Acquire = %+v, %v; want count %d", i, l, err, g.Count)
	}
	if g.Count == 1 {
		s.gen[i]++ // a new holding on the server
	}
	now := s.w.now()
	h := s.cur[i]
	if g.Count == 1 || h == nil || !h.relied(now) {
		if h != nil {
			h.ended = true
		}
		h = &reentrantHolding{owner: i, renewAt: now + s.renew}
		s.cur[i] = h
	}
	h.until = now + s.valid
	s.leases = append(s.leases, &reentrantLease{l: l, h: h, gen: s.gen[i]})
}

// dropStale is what an Acquire by an owner that holds nothing does first:
// the entries its earlier holdings left in the hash are removed, and the
// lock is free again if they were all the owner counted.
func (s *reentrantMachine) dropStale(i int) {
	for {
		who, n := s.m.Holder()
		if who != ownerID(i) || n == 0 {
			return
		}
		s.m.Release(ownerID(i))
	}
}

// release gives back any lease ever issued to the owner: it removes that
// acquisition's own entry if the hash still has it, and changes nothing
// otherwise (a second release, a lease of a holding that is over).
func (s *reentrantMachine) release(t *rapid.T) {
	if len(s.leases) == 0 {
		t.Skip("no lease yet")
	}
	hl := drawFrom(t, s.leases, "lease")
	i := hl.h.owner
	live, spent := s.entryLive(hl), hl.spent
	err := s.lockers[i].Release(context.Background(), hl.l)
	if !live {
		requireNotHeld(t, fmt.Sprintf("o%d Release of a lease whose entry is gone", i), err)
		if !spent {
			s.finish(hl.h) // the server said the lease holds nothing
		}
		return
	}
	left, ok := s.m.Release(ownerID(i))
	hl.spent = true
	switch {
	case !ok || err != nil:
		t.Fatalf("o%d Release = %v (model ok %v), want nil (count %d left)", i, err, ok, left)
	case left == 0: // the owner holds nothing: every holding of its is over
		s.finish(hl.h)
		if s.cur[i] != nil {
			s.finish(s.cur[i])
		}
	case hl.h.relied(s.w.now()):
		hl.h.until = s.w.now() + s.valid
	}
}

func (s *reentrantMachine) finish(h *reentrantHolding) {
	h.ended = true
	if s.cur[h.owner] == h {
		s.cur[h.owner] = nil
	}
}

func (s *reentrantMachine) extend(t *rapid.T) {
	if len(s.leases) == 0 {
		t.Skip("no lease yet")
	}
	hl := drawFrom(t, s.leases, "lease")
	i := hl.h.owner
	err := s.lockers[i].(locks.Extender).Extend(context.Background(), hl.l)
	now := s.w.now()
	switch {
	case !hl.h.relied(now) || hl.spent:
		requireNotHeld(t, "Extend of a lease not relied on, or released", err)
	case !s.m.Extend(ownerID(i)):
		requireNotHeld(t, fmt.Sprintf("o%d Extend when not reentrantHolding", i), err)
		s.finish(hl.h)
	case err != nil:
		t.Fatalf("o%d Extend = %v, want nil", i, err)
	default:
		hl.h.until = now + s.valid
	}
}

// advance moves time, stepping the model through the Service watchdogs'
// wake-ups due meanwhile.
func (s *reentrantMachine) advance(t *rapid.T) {
	d := drawAdvance(t, s.ttl)
	target := s.w.now() + d
	advance(t, s.w.clk, d)
	for s.service {
		h := s.nextRenewal(target)
		if h == nil {
			break
		}
		s.m.Advance(h.renewAt - s.m.Now())
		if at := h.renewAt; at >= h.until || !s.m.Extend(ownerID(h.owner)) {
			s.finish(h)
		} else {
			h.until, h.renewAt = at+s.valid, at+s.renew
		}
	}
	s.m.Advance(target - s.m.Now())
}

func (s *reentrantMachine) nextRenewal(target time.Duration) *reentrantHolding {
	var next *reentrantHolding
	for _, h := range s.cur {
		if h != nil && !h.ended && h.renewAt <= target && (next == nil || h.renewAt < next.renewAt) {
			next = h
		}
	}
	return next
}

// restart is the node restarting without persistence: the holdings begun
// before it leave the mutual-exclusion checks (see singleMachine.restart).
func (s *reentrantMachine) restart(t *rapid.T) {
	s.w.servers[0].FlushAll()
	s.m.Restart(false)
	for _, hl := range s.leases {
		hl.h.exposed = true
	}
}

func (s *reentrantMachine) check(t *rapid.T) {
	srv := s.w.servers[0]
	who, n := s.m.Holder()
	switch {
	case n == 0 && srv.Exists("res"):
		t.Fatalf("key res exists (%v), model: free", srv.Keys())
	case n > 0 && srv.HGet("res", who) != strconv.Itoa(n):
		t.Fatalf("res[%s] = %q, model: count %d", who, srv.HGet("res", who), n)
	case srv.TTL("res") != s.m.Remaining():
		t.Fatalf("res TTL %v, model %v", srv.TTL("res"), s.m.Remaining())
	}
	now := s.w.now()
	relied := map[int]bool{}
	for _, hl := range s.leases {
		if hl.h.relied(now) != (hl.l.Err() == nil) {
			t.Fatalf("o%d lease count %d at %v: Err() = %v, want relied-on = %v (until %v, ended %v)",
				hl.h.owner, hl.l.Count, now, hl.l.Err(), hl.h.relied(now), hl.h.until, hl.h.ended)
		}
		if !hl.h.relied(now) {
			hl.h.ended = true // Err is sticky once the validity ran out
			if !closed(hl.l.Done()) {
				t.Fatalf("o%d lease count %d: Err() = %v but Done is open", hl.h.owner, hl.l.Count, hl.l.Err())
			}
			continue
		}
		if hl.h.exposed {
			continue
		}
		relied[hl.h.owner] = true
		if !s.m.Holds(ownerID(hl.h.owner)) {
			t.Fatalf("o%d relies on its lease at %v, but the model says it does not hold the lock", hl.h.owner, now)
		}
	}
	if len(relied) > 1 {
		t.Fatalf("owners %v all rely on the lock at %v", relied, now)
	}
}

func runReentrant(t *testing.T, service bool) {
	w := newRapidWorld(t, 1)
	rapid.Check(t, func(t *rapid.T) {
		t.Repeat(newReentrantMachine(t, w, service).actions())
	})
}

func TestRapidReentrant(t *testing.T) { runReentrant(t, false) }
func TestRapidService(t *testing.T)   { runReentrant(t, true) }
