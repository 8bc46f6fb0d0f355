package sim

import (
	"context"
	"time"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/sim/oracle"
	"github.com/locksim/locksim/sim/scenario"
)

// The manual-extend step of the workload (scenario.Workload.ExtendEvery):
// a holder that extends its own lease, as users of Basic, Fenced or
// Reentrant do for a long section.

// extender returns the client's locker as a locks.Extender when the
// workload extends by hand and the pattern can.
func (c *client) extender() (locks.Extender, bool) {
	if c.w.sc.Workload.ExtendEvery <= 0 {
		return nil, false
	}
	x, ok := c.locker.(locks.Extender)
	return x, ok
}

// work spends d of work inside the section, extending the lease every
// ExtendEvery when the workload says so at work. It reports false when an
// extension was refused and the client is careful (it abandons the
// section).
func (c *client) work(l *locks.Lease, d time.Duration) bool {
	wl := c.w.sc.Workload
	x, ok := c.extender()
	if !ok || wl.ExtendOn == scenario.ExtendOnWrite {
		c.sleep(d)
		return true
	}
	for d > 0 && !c.w.s.Stopping() {
		step := min(d, wl.ExtendEvery)
		c.sleep(step)
		d -= step
		if d > 0 && !c.extend(x, l) && wl.Check {
			return c.abandon()
		}
	}
	return true
}

// extendAtWrite extends the lease once before the write is prepared, when
// the workload says so at write; false as work.
func (c *client) extendAtWrite(l *locks.Lease) bool {
	x, ok := c.extender()
	if !ok || c.w.sc.Workload.ExtendOn != scenario.ExtendOnWrite {
		return true
	}
	if c.extend(x, l) || !c.w.sc.Workload.Check {
		return true
	}
	return c.abandon()
}

// abandon is the careful client giving up its section's write after a
// refused extension; it returns false.
func (c *client) abandon() bool {
	c.w.emit(oracle.Event{Kind: oracle.Abandoned, Client: c.i, What: "extend"})
	return false
}

// extend calls Extend on l and counts it. The history records the
// extension scripts the nodes run (observe), as it does the watchdog's.
func (c *client) extend(x locks.Extender, l *locks.Lease) bool {
	ctx, cancel := c.proc.WithTimeout(context.Background(), c.w.sc.Workload.AcquireTimeout)
	var err error
	c.during(phaseExtend, func() { err = x.Extend(ctx, l) })
	cancel()
	if c.w.s.Stopping() {
		return err == nil
	}
	c.stats.Extends++
	if err != nil {
		c.stats.ExtendFailures++
	}
	c.w.emit(oracle.Event{Kind: oracle.Extended, Client: c.i, Held: l, Err: err})
	return err == nil
}
