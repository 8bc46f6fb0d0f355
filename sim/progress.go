package sim

import (
	"time"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/oracle"
)

// DefaultProgressTTLs is the bound, in TTLs, by which the progress oracle
// measures a pattern that makes no progress claim of its own
// (pattern.Claims.Progress is 0): explore and the gate count progress for
// every pattern.
const DefaultProgressTTLs = pattern.ProgressTTLs

// ProgressBound is the longest stretch of true time for which no client
// may hold the lock, under claims c and a scenario's TTL: c.Progress TTLs,
// or DefaultProgressTTLs when c makes no progress claim (the progress
// oracle, oracle.Progress).
func ProgressBound(c pattern.Claims, ttl time.Duration) time.Duration {
	return oracle.ProgressBound(c, ttl)
}

// Stalled says whether the run broke the progress property (see
// pattern.Claims.Progress): the lock was free for longer than the bound.
func (l Liveness) Stalled() bool { return l.Stalls > 0 }

// Starved says whether some client acquired nothing in the last stretch of
// the run (Stuck), which no pattern claims but a fair one should avoid.
func (l Liveness) Starved() bool { return len(l.Stuck) > 0 }

// stuckWindow is the last stretch of the run in which every client must
// acquire at least once.
func (w *world) stuckWindow() time.Duration {
	return min(max(20*w.sc.TTL, time.Second), w.sc.Duration)
}
