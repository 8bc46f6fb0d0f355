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
