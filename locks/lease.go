package locks

import (
	"fmt"
	"sync"
	"time"

	"github.com/locksim/locksim/clock"
)

// Lease is the proof of one successful Acquire.
//
// A holder may rely on the lock only while Err() is nil: Err turns non-nil
// when the validity runs out on the holder's own clock, when a watchdog
// learns the lock was lost, or after Release. Done is closed when a loss is
// detected by a watchdog or on Release (a validity that simply runs out is
// seen by Err, not by Done: nothing runs to notice it).
type Lease struct {
	// Key is the lock's key (for Fenced, the lock key inside its hash tag).
	Key string
	// Token is the owner token written to Redis; release and renewal check it.
	Token string
	// Fence is the fencing token issued with this acquisition, or 0 where the
	// pattern issues none. Fence tokens strictly increase across holders.
	Fence int64
	// Count is the hold count after this acquisition: 1 for a first
	// acquisition, n for the n-th nested one (reentrant patterns).
	Count int

	h *hold
}

// hold is the state shared by the leases of one continuous holding (several
// leases share it when a reentrant owner re-enters).
type hold struct {
	clk   clock.Clock
	mu    sync.Mutex
	start time.Time     // when the request that granted the current validity was sent
	valid time.Duration // validity measured from start
	err   error         // nil while held
	done  chan struct{}
	stop  func() // stops the watchdog, if any
}

func newHold(clk clock.Clock, start time.Time, valid time.Duration) *hold {
	return &hold{clk: clk, start: start, valid: valid, done: make(chan struct{})}
}

// extend records a successful renewal sent at start.
func (h *hold) extend(start time.Time, valid time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.err == nil {
		h.start, h.valid = start, valid
	}
}

// end marks the holding over with err; it is idempotent (the first reason wins).
func (h *hold) end(err error) {
	h.mu.Lock()
	if h.err != nil {
		h.mu.Unlock()
		return
	}
	h.err = err
	stop := h.stop
	h.mu.Unlock()
	close(h.done)
	if stop != nil {
		stop()
	}
}

func (h *hold) remaining() time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.valid - h.clk.Since(h.start)
}

// Err is nil while the holder may rely on the lock; ErrLockLost when the
// validity has run out or a loss was detected; ErrReleased after Release.
func (l *Lease) Err() error {
	h := l.h
	h.mu.Lock()
	err := h.err
	h.mu.Unlock()
	if err != nil {
		return err
	}
	return h.check()
}

// check ends the holding, sticky, once its validity has run out on the
// holder's clock, and returns the reason it ended (nil while valid).
func (h *hold) check() error {
	if h.remaining() <= 0 {
		h.end(fmt.Errorf("%w: validity ran out", ErrLockLost))
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}

// Validity is how much longer, on the holder's clock, the lock may be
// relied on (zero or negative once it cannot).
func (l *Lease) Validity() time.Duration {
	if l.Err() != nil {
		return 0
	}
	return l.h.remaining()
}

// Done is closed when the holding ends: on Release, or when a watchdog
// detects the lock was lost.
func (l *Lease) Done() <-chan struct{} { return l.h.done }

func (h *hold) ended() bool { return h.check() != nil }
