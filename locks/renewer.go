package locks

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// renewFunc extends the lock once: (true, nil) extended, (false, nil)
// refused because the lock is not ours, (_, err) outcome unknown.
type renewFunc func(ctx context.Context) (bool, error)

// idleLinger is how long a renewal loop outlives the last holding it
// renewed (at most RenewEvery): a Locker that acquires again within it
// hands its holding to the running loop instead of starting a goroutine,
// so a tight Acquire/Release loop starts none per cycle, and an idle
// Locker runs none once it has passed.
const idleLinger = 50 * time.Millisecond

// renewer is one Locker's renewal loop: a single goroutine, started on
// the Clock (so a paused or starved client's renewals stop too) when the
// Locker's first holding needs renewing, that renews every holding of the
// Locker, each on its own schedule — RenewEvery after its grant or last
// renewal, sooner again after a failed attempt — and ends once the Locker
// has held nothing for idleLinger.
type renewer struct {
	c *config
	m *Metrics

	mu      sync.Mutex
	jobs    []*renewal // the holdings being renewed, in the order added
	running bool       // the loop runs
	idleAt  time.Time  // when jobs last became empty
	sleep   *nap       // the loop's current sleep; nil while it renews
}

// nap is one sleep of the loop: it wakes after wait from start, or when
// poked (a holding due sooner was added).
type nap struct {
	start time.Time
	wait  time.Duration
	poke  context.CancelFunc
}

// renewal is one holding's place in the loop.
type renewal struct {
	l      *Lease
	renew  renewFunc
	base   time.Time     // the next attempt is due wait after base
	wait   time.Duration //
	gone   bool          // the holding ended: drop it, ignore its attempt
	cancel func()        // cancels the attempt in flight, if any
}

// newRenewer returns the renewal loop of a Locker configured by c (its
// Clock and RenewEvery), counting into m; it starts nothing yet.
func newRenewer(c *config, m *Metrics) *renewer { return &renewer{c: c, m: m} }

// add renews l with renew from now until its holding ends, starting the
// loop if it is not running.
func (r *renewer) add(l *Lease, renew renewFunc) {
	j := &renewal{l: l, renew: renew, base: r.c.Clock.Now(), wait: r.c.RenewEvery}
	r.mu.Lock()
	r.jobs = append(r.jobs, j)
	start := !r.running
	r.running = true
	var poke context.CancelFunc
	if s := r.sleep; s != nil && j.wait < s.wait-r.c.Clock.Since(s.start) {
		poke, r.sleep = s.poke, nil
	}
	r.mu.Unlock()
	l.h.onEnd(func() { r.drop(j) })
	if poke != nil {
		poke()
	}
	if start {
		r.c.Clock.Go(r.loop)
	}
}

// drop removes j (its holding ended) and cancels its attempt in flight.
func (r *renewer) drop(j *renewal) {
	r.mu.Lock()
	j.gone = true
	cancel := j.cancel
	for i, x := range r.jobs {
		if x == j {
			r.jobs = append(r.jobs[:i], r.jobs[i+1:]...)
			break
		}
	}
	var poke context.CancelFunc
	if len(r.jobs) == 0 {
		r.idleAt = r.c.Clock.Now()
		if s := r.sleep; s != nil && s.wait-r.c.Clock.Since(s.start) > r.linger() {
			poke, r.sleep = s.poke, nil // the loop sleeps past its linger: wake it to plan that
		}
	}
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if poke != nil {
		poke()
	}
}

// linger is how long the loop outlives its last holding.
func (r *renewer) linger() time.Duration { return min(idleLinger, r.c.RenewEvery) }

// loop sleeps until the next holding is due, renews the due ones, and
// returns once the Locker has been idle for the linger (or the clock
// refuses to sleep: a test clock shutting down).
func (r *renewer) loop() {
	for {
		ctx, wait, ok := r.plan()
		if !ok {
			return
		}
		err := r.c.Clock.Sleep(ctx, wait)
		poked := ctx.Err() != nil
		r.mu.Lock()
		if s := r.sleep; s != nil {
			s.poke()
			r.sleep = nil
		}
		if err != nil && !poked { // not a poke: the clock is shutting down
			r.running = false
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
		r.renewDue()
	}
}

// plan decides the loop's next sleep: until the earliest holding is due,
// or, with none, until the linger ends. It reports false, marking the
// loop stopped, when the linger has passed.
func (r *renewer) plan() (context.Context, time.Duration, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	clk := r.c.Clock
	var wait time.Duration
	if len(r.jobs) == 0 {
		wait = r.linger() - clk.Since(r.idleAt)
		if wait <= 0 {
			r.running = false
			return nil, 0, false
		}
	} else {
		wait = r.jobs[0].wait - clk.Since(r.jobs[0].base)
		for _, j := range r.jobs[1:] {
			wait = min(wait, j.wait-clk.Since(j.base))
		}
	}
	ctx, cancel := clk.WithCancel(context.Background())
	r.sleep = &nap{start: clk.Now(), wait: wait, poke: cancel}
	return ctx, wait, true
}

// renewDue makes one attempt for every holding that is due, in parallel
// when several are.
func (r *renewer) renewDue() {
	r.mu.Lock()
	var due []*renewal
	for _, j := range r.jobs {
		if j.wait-r.c.Clock.Since(j.base) <= 0 {
			due = append(due, j)
		}
	}
	r.mu.Unlock()
	r.c.Clock.Parallel(len(due), func(i int) { r.attempt(due[i]) })
}

// attempt makes one renewal attempt for j, bounded by a third of the
// validity left and at most RenewEvery; a failed attempt is tried again
// after retryPause while validity remains, a refused one ends the holding.
// A holding being released is not renewed.
func (r *renewer) attempt(j *renewal) {
	h := j.l.h
	if !h.renewable() { // being released: wait for the release to end it
		r.reschedule(j, r.c.RenewEvery)
		return
	}
	left := h.remaining()
	if left <= 0 {
		r.m.lost()
		h.runOut()
		return
	}
	ctx, cancel := r.c.Clock.WithTimeout(context.Background(), attemptTimeout(r.c, left))
	r.mu.Lock()
	if j.gone {
		r.mu.Unlock()
		cancel()
		return
	}
	j.cancel = cancel
	r.mu.Unlock()
	if !h.beginRenew() { // the release began meanwhile
		cancel()
		r.mu.Lock()
		j.cancel = nil
		r.mu.Unlock()
		r.reschedule(j, r.c.RenewEvery)
		return
	}
	ok, err := j.renew(ctx)
	h.endRenew()
	cancel()
	r.mu.Lock()
	j.cancel = nil
	gone := j.gone
	r.mu.Unlock()
	switch {
	case gone:
	case err == nil && ok:
		r.m.renewed()
		r.reschedule(j, r.c.RenewEvery)
	case err == nil:
		r.m.lost()
		h.end(fmt.Errorf("%w: renewal refused", ErrLockLost))
	default:
		r.m.renewFailed()
		r.reschedule(j, retryPause(r.c, h.remaining()))
	}
}

// reschedule makes j due again wait from now.
func (r *renewer) reschedule(j *renewal, wait time.Duration) {
	now := r.c.Clock.Now()
	r.mu.Lock()
	j.base, j.wait = now, wait
	r.mu.Unlock()
}

// attemptTimeout bounds one renewal attempt when left of the validity
// remains: a third of it, at most RenewEvery, at least 1ms.
func attemptTimeout(c *config, left time.Duration) time.Duration {
	return max(min(left/3, c.RenewEvery), time.Millisecond)
}

// retryPause is the wait after a failed renewal attempt before the next,
// so that an error that comes back at once (connection refused) does not
// spin: an eighth of the validity left, at most RenewEvery/4.
func retryPause(c *config, left time.Duration) time.Duration {
	return max(min(left/8, c.RenewEvery/4), 0)
}
