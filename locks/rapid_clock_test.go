package locks_test

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/locksim/locksim/clock"
)

// stepClock is the fake clock.Clock of the rapid tests: its time moves
// only in Advance, together with the Redis nodes' TTLs (onMove), so a
// watchdog renews at exactly the instants it asks for.
//
// Advance moves time one pending timer at a time and, before each move,
// waits until every goroutine started by Go is parked in Sleep or has
// returned (a condition variable, no polling): background work woken by a
// step finishes before time moves on. Only goroutines started by Go may
// Sleep; the test's own calls (Acquire with one attempt) never do.
// Parallel runs its functions one after another, in index order.
type stepClock struct {
	mu      sync.Mutex
	settled sync.Cond // signalled when running drops
	now     time.Time
	seq     uint64
	timers  []*stepTimer
	running int // goroutines started by Go, not parked in Sleep, not returned
	closed  bool
	onMove  func(d time.Duration)
	wg      sync.WaitGroup
}

type stepTimer struct {
	at    time.Time
	seq   uint64
	wake  chan struct{} // a sleeper's; nil for a context deadline
	ctx   context.Context
	fire  func()
	ended bool // set when taken off the list
}

var _ clock.Clock = (*stepClock)(nil)

var stepEpoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func newStepClock(onMove func(time.Duration)) *stepClock {
	c := &stepClock{now: stepEpoch, onMove: onMove}
	c.settled.L = &c.mu
	return c
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *stepClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

func (c *stepClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil || d <= 0 {
		return err
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return context.Canceled
	}
	tm := c.addLocked(d, ctx, nil)
	tm.wake = make(chan struct{})
	c.running--
	c.settled.Broadcast()
	c.mu.Unlock()
	select {
	case <-tm.wake:
	case <-ctx.Done():
		c.mu.Lock()
		if !tm.ended {
			c.removeLocked(tm)
			c.running++
		}
		c.mu.Unlock()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return context.Canceled
	}
	return nil
}

func (c *stepClock) WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	inner, cancel := context.WithCancel(ctx)
	if d <= 0 {
		cancel()
		return inner, cancel
	}
	c.mu.Lock()
	tm := c.addLocked(d, nil, cancel)
	c.mu.Unlock()
	return inner, func() {
		c.mu.Lock()
		c.removeLocked(tm)
		c.mu.Unlock()
		cancel()
	}
}

func (c *stepClock) WithCancel(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithCancel(ctx)
}

func (c *stepClock) Go(fn func()) {
	c.mu.Lock()
	c.running++
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer func() {
			c.mu.Lock()
			c.running--
			c.settled.Broadcast()
			c.mu.Unlock()
		}()
		fn()
	}()
}

func (c *stepClock) Parallel(n int, fn func(i int)) {
	for i := range n {
		fn(i)
	}
}

// Advance moves the time d forward through every timer due meanwhile.
func (c *stepClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	target := c.now.Add(d)
	for {
		c.settleLocked()
		tm := c.nextLocked(target)
		to := target
		if tm != nil {
			to = tm.at
		}
		if step := to.Sub(c.now); step > 0 {
			c.now = to
			c.mu.Unlock()
			c.onMove(step) // nothing else runs: every goroutine is parked
			c.mu.Lock()
		}
		if tm == nil {
			c.settleLocked()
			return
		}
		c.fireLocked(tm)
	}
}

// settleLocked waits until no goroutine started by Go is running; a
// sleeper whose context was cancelled meanwhile is woken first.
func (c *stepClock) settleLocked() {
	for {
		for _, tm := range slices.Clone(c.timers) {
			if tm.wake != nil && tm.ctx.Err() != nil {
				c.fireLocked(tm)
			}
		}
		if c.running == 0 {
			return
		}
		c.settled.Wait()
	}
}

// nextLocked is the earliest timer due by target, or nil.
func (c *stepClock) nextLocked(target time.Time) *stepTimer {
	var next *stepTimer
	for _, tm := range c.timers {
		if tm.at.After(target) {
			continue
		}
		if next == nil || tm.at.Before(next.at) || tm.at.Equal(next.at) && tm.seq < next.seq {
			next = tm
		}
	}
	return next
}

// fireLocked takes tm off the list and wakes its sleeper (which counts as
// running again) or cancels its context.
func (c *stepClock) fireLocked(tm *stepTimer) {
	c.removeLocked(tm)
	if tm.wake != nil {
		c.running++
		close(tm.wake)
		return
	}
	c.mu.Unlock()
	tm.fire()
	c.mu.Lock()
}

// Close wakes every sleeper with context.Canceled, makes later Sleeps
// fail the same way, and waits for the goroutines started by Go.
func (c *stepClock) Close() {
	c.mu.Lock()
	c.closed = true
	for _, tm := range slices.Clone(c.timers) {
		if tm.wake != nil {
			c.fireLocked(tm)
		}
	}
	c.mu.Unlock()
	c.wg.Wait()
}

func (c *stepClock) addLocked(d time.Duration, ctx context.Context, fire func()) *stepTimer {
	c.seq++
	tm := &stepTimer{at: c.now.Add(d), seq: c.seq, ctx: ctx, fire: fire}
	c.timers = append(c.timers, tm)
	return tm
}

func (c *stepClock) removeLocked(tm *stepTimer) {
	if i := slices.Index(c.timers, tm); i >= 0 {
		c.timers = slices.Delete(c.timers, i, i+1)
	}
	tm.ended = true
}
