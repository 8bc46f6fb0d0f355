package sim

import (
	"testing"
	"time"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// readersOnly is the registered rwlock with every client a reader: its
// holdings are members of the readers set, each backed by its own key.
func readersOnly(t *testing.T) pattern.Pattern {
	p := lookupPattern(t, "rwlock")
	p.New = pattern.Single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		rw, err := locks.NewRWLock(r, k, o)
		if err != nil {
			return nil, err
		}
		return rw.Reader(), nil
	})
	return p
}

// TestLossInstantOfAMemberHolding: a semaphore permit and a read holding
// are members of a set, each backed by its own expiring key; the set
// lives as long as its longest-lived member. c1, whose clock runs at half
// speed, holds from t≈0 and its member key expires ~100ms after its
// request arrived, while c2, which joined 50ms later, keeps the set alive
// until ~150ms. c1's loss is its own key's expiry, not the set's: its
// timer fires ~194ms after its request was sent, 92–94ms after the loss
// (the set's expiry would make it ~43ms).
func TestLossInstantOfAMemberHolding(t *testing.T) {
	s := parseScenario(t, "start clients=2 ttl=100ms duration=1s\nworkload work=300ms jitter=0s\ndrift c1 at=0s rate=-50%\npause c2 at=0s for=50ms\n")
	for _, p := range []pattern.Pattern{lookupPattern(t, "semaphore"), readersOnly(t)} {
		l := run(t, p, s, 1).LossSignal
		if l.Untracked != 0 || l.Losses == 0 || l.Signalled != l.Losses {
			t.Errorf("%s: loss signal %+v: want every holding tracked, its losses seen and signalled", p.Name, l)
		}
		if l.Max <= 92*time.Millisecond || l.Max > 94*time.Millisecond {
			t.Errorf("%s: largest latency %v, want 92–94ms: c1's loss is its member key's expiry", p.Name, l.Max)
		}
	}
}

// TestEveryPatternsHoldingsAreTracked: under a node that restarts empty
// while c1 holds, every correct pattern's grants are found on the nodes
// (none untracked) and the restart's loss is seen.
func TestEveryPatternsHoldingsAreTracked(t *testing.T) {
	for _, p := range append(pattern.All(), readersOnly(t)) {
		if p.Broken {
			continue
		}
		r := run(t, p, builtin(t, "node-restart-without-persistence", p), 1)
		if l := r.LossSignal; l.Untracked != 0 || l.Losses == 0 || r.Liveness.Acquisitions == 0 {
			t.Errorf("%s: loss signal %+v after %d acquisitions: want every grant tracked and the restart's loss seen", p.Name, l, r.Liveness.Acquisitions)
		}
	}
}
