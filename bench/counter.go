package bench

import (
	"sync/atomic"
	"time"
)

// Counter counts events — round trips, a subject's own retries — that
// happen inside a time window, so that they line up with the cycles a run
// counts, which are those completed inside the same window (a snapshot
// taken by a goroutine that wakes late would not). The zero value counts
// every event. Safe for concurrent use; a nil *Counter counts nothing.
type Counter struct {
	n        atomic.Int64
	from, to atomic.Int64 // unix nanoseconds; to == 0: no window
}

// Window makes the counter count only events in [from, to) from now on.
func (c *Counter) Window(from, to time.Time) {
	c.from.Store(from.UnixNano())
	c.to.Store(to.UnixNano())
}

// Inc counts one event if it happens inside the window.
func (c *Counter) Inc() {
	if c == nil {
		return
	}
	if to := c.to.Load(); to != 0 {
		now := time.Now().UnixNano()
		if now < c.from.Load() || now >= to {
			return
		}
	}
	c.n.Add(1)
}

// Load returns the count.
func (c *Counter) Load() int64 { return c.n.Load() }

// Reset sets the count to zero.
func (c *Counter) Reset() { c.n.Store(0) }
