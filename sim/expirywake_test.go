package sim

import "testing"

// TestWaitersDoNotWakeInStepWithHoldings: a waiter polls at the expiry of
// a holding it met once per Acquire, then goes on with its jittered
// backoff. Under wrong-owner-release (three clients on one lock, holders
// releasing well inside their TTL and followed at once) a waiter that
// woke at every holding's expiry met the next holding each time and was
// refused for ever: fenced, reentrant and rwlock-write left a client stuck
// in 20 of 20 seeds so. With the one poll they starve as often as without
// it (7, 5 and 3 of these 20 seeds; over 2000 seeds 767, 771 and 790
// against 780, 755 and 782 without the poll).
func TestWaitersDoNotWakeInStepWithHoldings(t *testing.T) {
	for _, pat := range []string{"fenced", "reentrant", "rwlock-write"} {
		stuck := 0
		for seed := uint64(1); seed <= 20; seed++ {
			if r := runBuiltin(t, pat, "wrong-owner-release", seed); r.Liveness.Starved() {
				stuck++
			}
		}
		if stuck > 12 {
			t.Errorf("%s under wrong-owner-release: a client stuck in %d of 20 seeds, want at most 12 (waiters woken in step with the holdings)", pat, stuck)
		}
	}
}
