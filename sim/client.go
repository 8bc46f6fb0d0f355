package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/network"
	"github.com/locksim/locksim/sim/oracle"
	"github.com/locksim/locksim/sim/sched"
)

// client is one simulated client: its process, its locker, its workload.
type client struct {
	w        *world
	i        int
	name     string
	proc     *sched.Proc
	locker   locks.Locker
	rng      *rand.Rand
	extra    time.Duration // pending slowness for the next workload step
	points   map[fault.Point]int
	stats    ClientResult
	waits    []time.Duration
	lastAcq  int64
	readCall int64        // when the current section's read was sent
	phase    string       // the call the main goroutine is in (see during)
	prev     *locks.Lease // misuse: the lease of the section before
	tries    attempts     // the attempts of the acquisition in progress
	last     *locks.Lease // misuse: the last lease this client acquired
}

func newClient(w *world, i int, name string, p *sched.Proc, l locks.Locker) *client {
	return &client{w: w, i: i, name: name, proc: p, locker: l, rng: stream(w.cfg.Seed, "workload", i),
		points: map[fault.Point]int{}, stats: ClientResult{Name: name}}
}

func (c *client) start() { c.proc.Spawn("main", c.loop) }

// loop runs critical sections until the run stops.
func (c *client) loop() {
	for !c.w.s.Stopping() {
		c.cycle()
	}
}

func (c *client) cycle() {
	wl := c.w.sc.Workload
	lease, id, ok := c.acquire()
	if !ok {
		c.sleep(wl.Think)
		return
	}
	c.at(fault.Acquired)
	inner, innerOK := c.enter()
	if wl.Reenter && (!innerOK || lease.Err() != nil) {
		// A careful user does not go on with a section whose nested
		// entry failed or outlasted the lease.
		if innerOK {
			c.release(inner)
		}
		c.at(fault.Release)
		c.release(lease)
		c.sleep(wl.Think)
		return
	}
	v, readOK := c.read(lease, id)
	c.at(fault.Work)
	worked := c.work(lease, c.workTime())
	if innerOK {
		c.release(inner)
	}
	if worked && readOK && !c.w.s.Stopping() && c.check(lease, id) {
		c.at(fault.Write)
		if c.extendAtWrite(lease) {
			c.sleep(wl.Prep)
			c.write(lease, id, v)
		}
	}
	c.at(fault.Release)
	c.release(lease)
	c.misuse(lease)
	c.sleep(wl.Think)
}

// misuse, under misuse=yes, releases lease again, the client's previous
// lease and another client's last lease, unrecorded: each must be refused
// and free nothing (an overlap afterwards says one was honoured).
func (c *client) misuse(lease *locks.Lease) {
	if !c.w.sc.Workload.Misuse || c.w.s.Stopping() {
		return
	}
	foreign := c.w.clients[(c.i+1)%len(c.w.clients)].last
	for _, m := range []struct {
		what string
		l    *locks.Lease
	}{{"duplicate", lease}, {"stale", c.prev}, {"foreign", foreign}} {
		if m.l == nil || m.l == c.last && m.what == "foreign" || c.w.s.Stopping() {
			continue
		}
		ctx, cancel := c.proc.WithTimeout(context.Background(), c.w.sc.Workload.AcquireTimeout)
		err := c.locker.Release(ctx, m.l)
		cancel()
		c.w.emit(oracle.Event{Kind: oracle.Misused, Client: c.i, Held: m.l, What: m.what, Err: err})
	}
	c.prev = lease
}

// enter takes the lock a second time, nested, when the workload re-enters.
func (c *client) enter() (*locks.Lease, bool) {
	if !c.w.sc.Workload.Reenter || c.w.s.Stopping() {
		return nil, false
	}
	l, _, ok := c.acquire()
	return l, ok
}

func (c *client) now() int64 { return c.w.s.Now() }

func (c *client) sleep(d time.Duration) { _ = c.proc.Sleep(context.Background(), d) }

// workTime draws work ± jitter from the client's workload stream.
func (c *client) workTime() time.Duration {
	wl := c.w.sc.Workload
	if wl.Jitter <= 0 {
		return wl.Work
	}
	return wl.Work - wl.Jitter + time.Duration(c.rng.Int64N(int64(2*wl.Jitter)+1))
}

// at marks a workload point: it fires the faults waiting for it (letting
// them take effect before the client goes on), then spends any pending
// slowness.
func (c *client) at(p fault.Point) {
	if c.w.s.Stopping() {
		return
	}
	c.reach(p)
	if d := c.extra; d > 0 {
		c.extra = 0
		c.w.emit(oracle.Event{Kind: oracle.Slowed, Client: c.i, For: d})
		c.sleep(d)
	}
}

// reach counts a point reached by the running goroutine of the client and
// fires the faults waiting for it (letting those due now take effect
// before the goroutine goes on).
func (c *client) reach(p fault.Point) {
	if c.w.s.Stopping() {
		return
	}
	c.points[p]++
	if fs := c.w.trig[trigKey{c.name, p, c.points[p]}]; len(fs) > 0 && c.w.fireTriggered(fs) {
		_ = c.w.s.Current().Yield()
	}
}

func (c *client) acquire() (*locks.Lease, int, bool) {
	call := c.now()
	ctx, cancel := c.proc.WithTimeout(context.Background(), c.w.sc.Workload.AcquireTimeout)
	var lease *locks.Lease
	var err error
	c.tries.begin()
	c.w.emit(oracle.Event{Kind: oracle.Wanting, Client: c.i})
	c.during(phaseAcquire, func() { lease, err = c.locker.Acquire(ctx) })
	cancel()
	if err == nil && lease == nil {
		c.w.s.Fail(fmt.Errorf("client %s: %w", c.name, ErrNilLease))
		err = ErrNilLease
	}
	if err != nil || c.w.s.Stopping() {
		if !c.w.s.Stopping() {
			c.stats.Failures++
		}
		c.w.emit(oracle.Event{Kind: oracle.Refused, Client: c.i, Call: call, Err: err})
		return nil, 0, false
	}
	c.last = lease
	id := c.w.emit(oracle.Event{Kind: oracle.Granted, Client: c.i, Held: lease, Call: call, Fence: lease.Fence, Shared: pattern.ReadLease(lease)})
	c.stats.Acquisitions++
	c.waits = append(c.waits, (time.Duration(c.now() - call)).Round(time.Microsecond))
	c.lastAcq = c.now()
	return lease, id, true
}

// check is the careful user's lease check before writing.
func (c *client) check(l *locks.Lease, id int) bool {
	if !c.w.sc.Workload.Check {
		return true
	}
	if err := l.Err(); err != nil {
		c.w.emit(oracle.Event{Kind: oracle.Abandoned, Client: c.i, What: "check", Err: err})
		return false
	}
	c.w.emit(oracle.Event{Kind: oracle.Acting, Client: c.i, Lease: id, What: "check"})
	return true
}

func (c *client) read(l *locks.Lease, id int) (int64, bool) {
	call := c.now()
	c.w.emit(oracle.Event{Kind: oracle.Acting, Client: c.i, Lease: id, What: "read"})
	var m network.Message
	var err error
	c.during(phaseRead, func() {
		m, err = c.w.net.Call(context.Background(), c.i, c.w.dbEP, storeReq{fence: l.Fence, lease: id})
	})
	var v int64
	if err == nil {
		v = m.(storeResp).value
	}
	c.w.emit(oracle.Event{Kind: oracle.Read, Client: c.i, Lease: id, Call: call, Fence: l.Fence, Value: v, Err: err})
	c.readCall = call
	return v, err == nil
}

func (c *client) write(l *locks.Lease, id int, v int64) {
	call := c.now()
	c.w.emit(oracle.Event{Kind: oracle.Acting, Client: c.i, Lease: id, What: "write"})
	var m network.Message
	var err error
	c.during(phaseWrite, func() {
		m, err = c.w.net.Call(context.Background(), c.i, c.w.dbEP, storeReq{write: true, value: v + 1, read: v, fence: l.Fence, lease: id})
	})
	c.w.emit(oracle.Event{Kind: oracle.Wrote, Client: c.i, Lease: id, Call: call, Fence: l.Fence, Value: v + 1, From: v, Since: c.readCall,
		Accepted: err == nil && m.(storeResp).accepted, Err: err})
}

func (c *client) release(l *locks.Lease) {
	call := c.now()
	c.w.emit(oracle.Event{Kind: oracle.Releasing, Client: c.i, Held: l})
	ctx, cancel := c.proc.WithTimeout(context.Background(), c.w.sc.Workload.AcquireTimeout)
	var err error
	c.during(phaseRelease, func() { err = c.locker.Release(ctx, l) })
	cancel()
	c.w.emit(oracle.Event{Kind: oracle.Released, Client: c.i, Held: l, Call: call, Err: err})
}
