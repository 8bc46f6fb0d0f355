package realmode

import (
	"fmt"
	"time"

	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// applyAfter injects the scenario's fault idx d from now: a timed fault's
// at=, or a triggered fault's after= from its point (the caller holds
// c.mu, or the run has not begun).
func (c *coord) applyAfter(idx int, d time.Duration) {
	if c.stopping {
		return
	}
	c.timers = append(c.timers, time.AfterFunc(d, func() { c.locked(func() { c.apply(idx) }) }))
}

// overtime is how much longer the run must go on past the scenario's
// duration, 0 if it may end now. A loaded machine can start a client late
// or slow it down, so that it reaches a fault's point near the end of the
// run, or not before it: the run then waits for every triggered fault that
// has not fired while its client is still running, and after a fault has
// fired, for its effect (For) and two TTLs more, so that the other clients
// act in its shadow as they would have inside the duration. It waits for
// a fault to fire at most max(duration, 3s) past the duration (a pattern
// may never reach the point: a lock that renews nothing and renew-sent),
// and for a fault's effect at most hangAfter: a fault that has not fired
// by then is reported as not fired, as before.
func (c *coord) overtime() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Duration(c.now())
	limit := c.sc.Duration + c.hangAfter()
	if now >= limit || len(c.failures) > 0 {
		return 0
	}
	const poll = 50 * time.Millisecond
	fireBy := c.sc.Duration + max(c.sc.Duration, 3*time.Second)
	var need time.Duration
	for i, f := range c.sc.Faults {
		if !c.fired[i].Fired {
			if f.When.Triggered() && now < fireBy {
				need = max(need, poll)
			}
			continue
		}
		settle := time.Duration(c.fired[i].At) + f.For + 2*c.sc.TTL
		need = max(need, settle-now)
	}
	return min(need, limit-now)
}

// firings is the firing record of every fault of the scenario at the end
// of the run, in the simulator's form, with the reason for each that did
// not fire (the caller holds c.mu).
func (c *coord) firings() []sim.FaultFiring {
	out := make([]sim.FaultFiring, len(c.sc.Faults))
	for i, f := range c.sc.Faults {
		out[i] = c.fired[i]
		out[i].Fault = scenario.FormatFault(f)
		if !out[i].Fired {
			out[i].Why = c.whyNotFired(f)
		}
	}
	return out
}

// whyNotFired explains why f did not fire, in the simulator's words.
func (c *coord) whyNotFired(f fault.Fault) string {
	if !f.When.Triggered() {
		if f.When.At > c.sc.Duration {
			return "the run ends at " + c.sc.Duration.String()
		}
		return "the run stopped before " + f.When.At.String()
	}
	reached := 0
	if i := fault.Index(f.When.Client); fault.IsClient(f.When.Client) && i < len(c.state) {
		reached = c.state[i].points[f.When.Point]
	}
	switch {
	case reached >= max(f.When.N, 1):
		return fmt.Sprintf("%s reached %s, but after=%v lands past the run's end (%v)", f.When.Client, f.When.Point, f.When.After, c.sc.Duration)
	case reached == 0:
		return fmt.Sprintf("%s never reached %s in the run's %v", f.When.Client, f.When.Point, c.sc.Duration)
	case reached == 1:
		return fmt.Sprintf("%s reached %s only once in the run's %v (n=%d)", f.When.Client, f.When.Point, c.sc.Duration, f.When.N)
	}
	return fmt.Sprintf("%s reached %s only %d times in the run's %v (n=%d)", f.When.Client, f.When.Point, reached, c.sc.Duration, f.When.N)
}
