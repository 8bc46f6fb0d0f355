package clocktest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/locksim/locksim/clock"
)

// ManualClock is a clock.Clock whose time moves only when Advance is
// called. It lets a test run the real lock code, watchdog included, against
// a server whose TTLs also move only when told (miniredis), with no real
// waiting and no race between the two clocks.
//
// Advance moves time in steps, one pending timer at a time. Before each
// step, and after the last, it waits (in real time) until every goroutine
// started through Go is blocked in Sleep or has returned: a watchdog woken
// by a step has finished its renewal before time moves on.
//
// Sleep and the contexts of WithTimeout wake on the manual time only. Calls
// made outside goroutines started by Go (the test's own Acquire) must not
// sleep while Advance runs, or Advance may take them for background work
// at rest.
//
// Two switches fit it to tests of one goroutine: Sequential runs Parallel's
// functions one after another in index order (so a Redlock's fan-out is
// deterministic), and SleepMoves makes the lock code's own Sleep move the
// time (see SleepMoves).
type ManualClock struct {
	mu       sync.Mutex
	now      time.Time
	seq      uint64
	timers   []*timer // pending, in no particular order
	running  int      // goroutines started by Go that have not returned
	sleepers int      // timers in timers that belong to a Sleep
	step     func(d time.Duration)
	stopped  chan struct{} // closed by Stop
	stop     sync.Once
	wg       sync.WaitGroup // the goroutines started by Go

	// Settle bounds how long Advance waits for background work to come to
	// rest; zero means 10s.
	Settle time.Duration
	// Sequential makes Parallel run fn(0), fn(1), … one after another.
	Sequential bool
	// SleepMoves makes Sleep move the time d forward itself (as Advance
	// does, firing the timers due meanwhile) instead of waiting for an
	// Advance, and makes Go drop its function: time then moves only when
	// the lock code waits, for a test of one goroutine that bounds its
	// waits with Retry.Attempts. Background work is not run, since its
	// sleeps would move the time for everyone.
	SleepMoves bool
}

type timer struct {
	at    time.Time
	seq   uint64
	sleep bool
	ctx   context.Context // a sleeper's; nil for a context deadline
	fire  func()
}

var _ clock.Clock = (*ManualClock)(nil)

// NewManualClock returns a clock reading start. onStep, if not nil, is
// called with each step's length before the timers due at its end fire
// (move the servers' TTLs there, e.g. with miniredis's FastForward).
func NewManualClock(start time.Time, onStep func(d time.Duration)) *ManualClock {
	return &ManualClock{now: start, step: onStep, stopped: make(chan struct{})}
}

// ErrClockStopped is what Sleep returns once the clock is stopped.
var ErrClockStopped = errors.New("clocktest: manual clock stopped")

// Stop ends the clock: every Sleep, pending or to come, returns
// ErrClockStopped, so that the background work started through Go (a
// watchdog, a lease's validity timer) ends instead of waiting for an
// Advance that will never come. The backends stop their clock when the
// test ends.
func (c *ManualClock) Stop() { c.stop.Do(func() { close(c.stopped) }) }

// Close stops the clock and waits until every goroutine started through Go
// has returned.
func (c *ManualClock) Close() {
	c.Stop()
	c.wg.Wait()
}

// Now returns the manual time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Since returns the manual time elapsed since t.
func (c *ManualClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// Sleep blocks until Advance has moved the time d forward, or ctx is done.
func (c *ManualClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d <= 0 {
		return nil
	}
	if c.SleepMoves {
		return c.Advance(d)
	}
	woken := make(chan struct{})
	tm := c.add(d, ctx, func() { close(woken) })
	select {
	case <-woken:
		return nil
	case <-ctx.Done():
		c.remove(tm)
		return ctx.Err()
	case <-c.stopped:
		c.remove(tm)
		return ErrClockStopped
	}
}

// WithTimeout returns a context that is done when ctx is, or when the
// manual time has moved d forward (its Err is then DeadlineExceeded). It
// reports no Deadline: the manual time is not the wall clock a network
// client would compare it with.
func (c *ManualClock) WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	inner, cancel := context.WithCancel(ctx)
	tc := &timeoutCtx{Context: inner}
	if d <= 0 {
		tc.expire(cancel)
		return tc, cancel
	}
	tm := c.add(d, nil, func() { tc.expire(cancel) })
	return tc, func() { c.remove(tm); cancel() }
}

// WithCancel returns context.WithCancel(ctx); Sleep observes it.
func (c *ManualClock) WithCancel(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithCancel(ctx)
}

// Go runs fn in a new goroutine that Advance waits for (under SleepMoves,
// it does not run fn).
func (c *ManualClock) Go(fn func()) {
	if c.SleepMoves {
		return
	}
	c.mu.Lock()
	c.running++
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer func() {
			c.mu.Lock()
			c.running--
			c.mu.Unlock()
		}()
		fn()
	}()
}

// Parallel runs fn(i) for i in [0, n) concurrently and waits for all, or
// one after another in index order if Sequential is set.
func (c *ManualClock) Parallel(n int, fn func(i int)) {
	if !c.Sequential {
		clock.Real{}.Parallel(n, fn)
		return
	}
	for i := range n {
		fn(i)
	}
}

// Running is the number of goroutines started by Go that have not returned.
func (c *ManualClock) Running() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running
}

// Advance moves the time d forward, step by step through the pending
// timers, letting background work run to rest at each step. It fails if
// that work does not come to rest within Settle (real time).
func (c *ManualClock) Advance(d time.Duration) error {
	target := c.Now().Add(d)
	for {
		if err := c.settle(); err != nil {
			return err
		}
		step, due, last := c.next(target)
		if step > 0 && c.step != nil {
			c.step(step)
		}
		for _, tm := range due {
			tm.fire()
		}
		if last {
			return c.settle()
		}
	}
}

// next moves the time to the earliest pending timer no later than target
// (or to target) and takes the timers due then off the list. It returns the
// length of the step, the due timers in (at, seq) order, and whether the
// time reached target.
func (c *ManualClock) next(target time.Time) (time.Duration, []*timer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	to := target
	for _, tm := range c.timers {
		if tm.at.Before(to) {
			to = tm.at
		}
	}
	step := to.Sub(c.now)
	if step < 0 {
		step = 0
	}
	c.now = c.now.Add(step)
	var due, keep []*timer
	for _, tm := range c.timers {
		if tm.at.After(c.now) {
			keep = append(keep, tm)
			continue
		}
		due = append(due, tm)
		if tm.sleep {
			c.sleepers--
		}
	}
	c.timers = keep
	slices.SortFunc(due, func(a, b *timer) int {
		if x := a.at.Compare(b.at); x != 0 {
			return x
		}
		return cmp.Compare(a.seq, b.seq)
	})
	return step, due, !c.now.Before(target)
}

// settle waits until every goroutine started by Go sleeps or has returned;
// a sleeper whose context is done counts as busy (it is about to wake).
func (c *ManualClock) settle() error {
	limit := c.Settle
	if limit <= 0 {
		limit = 10 * time.Second
	}
	deadline := time.Now().Add(limit)
	for {
		busy := c.busy()
		if busy <= 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("clocktest: %d background goroutine(s) still busy after %v of real time", busy, limit)
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// busy is the number of goroutines started by Go that are neither parked
// in a Sleep whose context is live nor returned.
func (c *ManualClock) busy() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.running - c.sleepers
	for _, tm := range c.timers {
		if tm.sleep && tm.ctx.Err() != nil {
			n++
		}
	}
	return n
}

// add registers a timer due d from now: a sleeper's if ctx is not nil.
func (c *ManualClock) add(d time.Duration, ctx context.Context, fire func()) *timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	sleep := ctx != nil
	tm := &timer{at: c.now.Add(d), seq: c.seq, sleep: sleep, ctx: ctx, fire: fire}
	c.timers = append(c.timers, tm)
	if sleep {
		c.sleepers++
	}
	return tm
}

// remove takes tm off the list if it is still pending.
func (c *ManualClock) remove(tm *timer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := slices.Index(c.timers, tm)
	if i < 0 {
		return
	}
	c.timers = slices.Delete(c.timers, i, i+1)
	if tm.sleep {
		c.sleepers--
	}
}

// timeoutCtx is a cancellable context whose Err reports DeadlineExceeded
// once its manual-time timer fired.
type timeoutCtx struct {
	context.Context
	mu      sync.Mutex
	expired bool
}

// expire ends the context as timed out, unless it already ended otherwise.
func (t *timeoutCtx) expire(cancel context.CancelFunc) {
	t.mu.Lock()
	t.expired = t.Context.Err() == nil
	t.mu.Unlock()
	cancel()
}

// Err returns DeadlineExceeded after the timer fired, else the parent's Err.
func (t *timeoutCtx) Err() error {
	err := t.Context.Err()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.expired && errors.Is(err, context.Canceled) {
		return context.DeadlineExceeded
	}
	return err
}

// Eventually polls cond in real time until it holds or limit has passed,
// and reports whether it held: for waiting on goroutines a test cannot
// synchronise with (those a Go call started, a leaked watchdog).
func Eventually(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}
