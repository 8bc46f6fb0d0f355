package locks_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/model"
)

// rapidRedlockNodes is the Redlock machine's node count.
const rapidRedlockNodes = 5

// redlockMachine drives Redlock lockers of several owners over five nodes
// beside a model.Quorum keyed by lease token. Nodes go down (refusing every
// request, keeping their data, their TTLs still running) and come back up;
// no node loses its data, the condition under which Redlock promises
// mutual exclusion.
type redlockMachine struct {
	w       *rapidWorld
	ttl     time.Duration
	valid   time.Duration
	lockers []locks.Locker
	q       *model.Quorum
	leases  []*trackedLease
}

func newRedlockMachine(t *rapid.T, w *rapidWorld) *redlockMachine {
	w.reset(t)
	ttl := rapidTTL(t)
	q, err := model.NewQuorum(rapidRedlockNodes, ttl)
	if err != nil {
		t.Fatal(err)
	}
	s := &redlockMachine{w: w, ttl: ttl, valid: grantValidity(ttl), q: q}
	seed := rapid.Uint64().Draw(t, "seed")
	for i := range rapidOwners {
		l, err := locks.NewRedlock(w.redis(), "res", w.options(ttl, seed, i))
		if err != nil {
			t.Fatal(err)
		}
		s.lockers = append(s.lockers, l)
	}
	return s
}

func (s *redlockMachine) actions() map[string]func(*rapid.T) {
	return map[string]func(*rapid.T){
		"acquire": s.acquire,
		"release": s.release,
		"advance": s.advance,
		"down":    s.down,
		"up":      s.up,
		"":        s.check,
	}
}

func (s *redlockMachine) acquire(t *rapid.T) {
	i := rapid.IntRange(0, rapidOwners-1).Draw(t, "owner")
	l, err := s.lockers[i].Acquire(context.Background())
	if err != nil {
		switch {
		case !s.anyDown() && !errors.Is(err, locks.ErrQuorum):
			t.Fatalf("o%d Acquire = %v, want ErrQuorum (every node up)", i, err)
		case !errors.Is(err, locks.ErrQuorum) && !errors.Is(err, locks.ErrUnavailable):
			t.Fatalf("o%d Acquire = %v, want ErrQuorum or ErrUnavailable", i, err)
		}
		if s.q.Acquire("model-probe") {
			t.Fatalf("o%d Acquire = %v, but the model grants a quorum", i, err)
		}
		return
	}
	if !s.q.Acquire(l.Token) {
		t.Fatalf("o%d Acquire succeeded (%s), but the model has no free majority", i, l.Token)
	}
	s.leases = append(s.leases, &trackedLease{l: l, owner: i, until: s.w.now() + s.valid})
}

// release gives back any lease ever issued; with a node down, Release
// reports that node's error even when the others released.
func (s *redlockMachine) release(t *rapid.T) {
	if len(s.leases) == 0 {
		t.Skip("no lease yet")
	}
	tl := drawFrom(t, s.leases, "lease")
	err := s.lockers[tl.owner].Release(context.Background(), tl.l)
	freed := s.q.Release(tl.l.Token)
	tl.ended = true
	switch {
	case freed == 0:
		requireNotHeld(t, "Release("+tl.l.Token+") held on no up node", err)
	case s.anyDown() && (err == nil || errors.Is(err, locks.ErrNotHeld)):
		t.Fatalf("Release(%s) freed %d nodes with a node down = %v, want the node's error", tl.l.Token, freed, err)
	case !s.anyDown() && err != nil:
		t.Fatalf("Release(%s) freed %d nodes = %v, want nil", tl.l.Token, freed, err)
	}
}

func (s *redlockMachine) anyDown() bool {
	for _, n := range s.w.nodes {
		if n.down {
			return true
		}
	}
	return false
}

func (s *redlockMachine) advance(t *rapid.T) {
	d := drawAdvance(t, s.ttl)
	advance(t, s.w.clk, d)
	s.q.Advance(d)
}

func (s *redlockMachine) down(t *rapid.T) {
	i := rapid.IntRange(0, rapidRedlockNodes-1).Draw(t, "node")
	s.w.nodes[i].down = true
	s.q.Down(i)
}

func (s *redlockMachine) up(t *rapid.T) {
	i := rapid.IntRange(0, rapidRedlockNodes-1).Draw(t, "node")
	s.w.nodes[i].down = false
	s.q.Up(i)
}

func (s *redlockMachine) check(t *rapid.T) {
	for i, srv := range s.w.servers {
		node := s.q.Node(i)
		owner, n := node.Holder()
		switch got, _ := srv.Get("res"); {
		case n == 0 && srv.Exists("res"):
			t.Fatalf("node %d: res = %q, model: free", i, got)
		case n > 0 && got != owner:
			t.Fatalf("node %d: res = %q, model: held by %s", i, got, owner)
		case srv.TTL("res") != node.Remaining():
			t.Fatalf("node %d: res TTL %v, model %v", i, srv.TTL("res"), node.Remaining())
		}
	}
	now := s.w.now()
	live := checkLeaseViews(t, s.leases, now)
	if len(live) > 1 {
		t.Fatalf("%d holders rely on the lock at %v: %s and %s", len(live), now, live[0].l.Token, live[1].l.Token)
	}
	for _, tl := range live {
		held := 0
		for i := range rapidRedlockNodes {
			if s.q.Node(i).Holds(tl.l.Token) {
				held++
			}
		}
		if held < s.q.Majority() {
			t.Fatalf("o%d relies on %s at %v, held on only %d nodes", tl.owner, tl.l.Token, now, held)
		}
	}
}

func TestRapidRedlock(t *testing.T) {
	w := newRapidWorld(t, rapidRedlockNodes)
	rapid.Check(t, func(t *rapid.T) {
		t.Repeat(newRedlockMachine(t, w).actions())
	})
}
