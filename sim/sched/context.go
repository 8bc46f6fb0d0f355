package sched

import (
	"context"
	"time"
)

// Ctx is a context made by a Proc: its deadline is an event in true time
// and its cancellation wakes the Gs waiting on it, so that Sleep and the
// simulated Redis calls return when it is done.
//
// Ctx implements the AfterFunc method that package context looks for, so
// context.WithCancel(ctx) and friends propagate its cancellation without
// starting a goroutine. context.WithoutCancel(ctx) detaches as usual.
// Cancellation of a context that neither a Proc nor package context's
// cancel types made is not observed by the scheduler.
type Ctx struct {
	parent   context.Context
	deadline time.Time
	hasDl    bool
	err      error
	done     chan struct{} // made on first Done(): most contexts are never asked
	up       *Ctx
	children []*Ctx
	waiters  []Waker
	funcs    []*afterFunc
	// first holds the first waiters without a separate allocation: most
	// contexts (one per call) have one or two.
	first [2]Waker
}

type ctxKey struct{}

type afterFunc struct {
	fn   func()
	done bool
}

var _ context.Context = (*Ctx)(nil)

// Deadline is the wall-clock deadline of the Proc that made it.
func (c *Ctx) Deadline() (time.Time, bool) { return c.deadline, c.hasDl }

// Done is closed when the context is cancelled or its deadline passes.
func (c *Ctx) Done() <-chan struct{} {
	if c.done == nil {
		if c.err != nil {
			return closedDone
		}
		c.done = make(chan struct{})
	}
	return c.done
}

// closedDone is Done of a context cancelled before anyone asked for it.
var closedDone = func() chan struct{} { ch := make(chan struct{}); close(ch); return ch }()

// Err is nil until the context is done.
func (c *Ctx) Err() error { return c.err }

// Value returns the Ctx itself for the package's key, else the parent's value.
func (c *Ctx) Value(key any) any {
	if key == (ctxKey{}) {
		return c
	}
	return c.parent.Value(key)
}

func (c *Ctx) String() string { return "sched.Ctx" }

// AfterFunc arranges for f to run when c is done (at once if it is); the
// returned stop reports whether it prevented f from running.
func (c *Ctx) AfterFunc(f func()) (stop func() bool) {
	if c.err != nil {
		f()
		return func() bool { return false }
	}
	a := &afterFunc{fn: f}
	c.funcs = append(c.funcs, a)
	return func() bool {
		stopped := !a.done
		a.done = true
		return stopped
	}
}

// simCtx returns the Ctx whose cancellation ctx reports, if any: ctx
// itself, or the Ctx under a wrapper that reports its Done.
func simCtx(ctx context.Context) *Ctx {
	if c, ok := ctx.(*Ctx); ok {
		return c
	}
	done := ctx.Done()
	if done == nil {
		return nil
	}
	if c, ok := ctx.Value(ctxKey{}).(*Ctx); ok && c.Done() == done {
		return c
	}
	return nil
}

// watch makes the cancellation of ctx wake w with ctx's error, when the
// scheduler can observe it (a Ctx, or a value-only wrapper of one).
func watch(ctx context.Context, w Waker) {
	if c := simCtx(ctx); c != nil {
		c.addWaiter(w)
	}
}

// Watch is watch for other packages' seams: when ctx is cancelled (or its
// deadline passes), w is woken with ctx.Err().
func Watch(ctx context.Context, w Waker) { watch(ctx, w) }

func (c *Ctx) addWaiter(w Waker) {
	if c.err != nil {
		w.Wake(nil, c.err)
		return
	}
	if len(c.waiters) >= 8 { // drop stale waiters so long-lived contexts do not grow
		live := c.waiters[:0]
		for _, x := range c.waiters {
			if !x.Stale() {
				live = append(live, x)
			}
		}
		clear(c.waiters[len(live):])
		c.waiters = live
	}
	if c.waiters == nil {
		c.waiters = c.first[:0]
	}
	c.waiters = append(c.waiters, w)
}

func (p *Proc) newCtx(parent context.Context) *Ctx {
	c := &Ctx{parent: parent}
	c.deadline, c.hasDl = parent.Deadline()
	if up := simCtx(parent); up != nil {
		if up.err != nil {
			c.cancel(up.err)
			return c
		}
		c.up = up
		up.children = append(up.children, c)
	} else if err := parent.Err(); err != nil {
		c.cancel(err)
	}
	return c
}

// WithCancel returns a Ctx cancelled by the returned func or with its parent.
func (p *Proc) WithCancel(parent context.Context) (context.Context, context.CancelFunc) {
	c := p.newCtx(parent)
	return c, func() { c.cancel(context.Canceled) }
}

// WithTimeout returns a Ctx that is also cancelled d from now on the
// process's clock (converted to true time at the current drift).
func (p *Proc) WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	c := p.newCtx(parent)
	if dl := p.Now().Add(d); !c.hasDl || dl.Before(c.deadline) {
		c.deadline, c.hasDl = dl, true
	}
	if d <= 0 {
		c.cancel(context.DeadlineExceeded)
	} else if c.err == nil {
		p.s.AtRun(p.s.now+p.clk.TrueFor(d), (*ctxTimer)(c))
	}
	return c, func() { c.cancel(context.Canceled) }
}

// ctxTimer is a Ctx's deadline, as an event.
type ctxTimer Ctx

// Run cancels the context with DeadlineExceeded (nothing if it is done).
func (t *ctxTimer) Run() { (*Ctx)(t).cancel(context.DeadlineExceeded) }

// cancel marks c done with err, then its children, after-funcs and
// waiters. Lists are detached first: a woken G may touch c again.
func (c *Ctx) cancel(err error) {
	if c.err != nil {
		return
	}
	c.err = err
	if c.done != nil {
		close(c.done)
	}
	if up := c.up; up != nil {
		c.up = nil
		for i, x := range up.children {
			if x == c {
				up.children = append(up.children[:i], up.children[i+1:]...)
				break
			}
		}
	}
	kids, funcs, ws := c.children, c.funcs, c.waiters
	c.children, c.funcs, c.waiters = nil, nil, nil
	for _, k := range kids {
		k.cancel(err)
	}
	for _, f := range funcs {
		if !f.done {
			f.done = true
			f.fn()
		}
	}
	for _, w := range ws {
		w.Wake(nil, err)
	}
}
