package sim

import (
	"fmt"

	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// FaultFiring says whether one fault of the scenario fired in a run and,
// when it did not, why: a run in which a fault never fired did not test
// what the scenario says it tests.
type FaultFiring struct {
	// Fault is the fault as the scenario file writes it.
	Fault string `json:"fault"`
	Fired bool   `json:"fired"`
	// At is the true time it fired (when Fired).
	At int64 `json:"at_ns,omitempty"`
	// Why says, when it did not fire, what the run did instead:
	// "the run ends at 1s", "c1 reached write only 37 times".
	Why string `json:"why,omitempty"`
	// Schedule is the schedule line the fault is an occurrence of
	// ("pause c* every=exp(1s) for=exp(50ms)"), or "" for a fault the
	// scenario gives as it is.
	Schedule string `json:"schedule,omitempty"`
	// Of is, in a scenario with schedules, the 1-based position among the
	// scenario's fault lines of the line this record belongs to (a
	// schedule has one record per occurrence, or one saying it drew
	// none); 0 in a scenario without schedules, whose records are the
	// scenario's faults in order.
	Of int `json:"of,omitempty"`
}

// FaultsFired counts the faults of r that fired.
func (r *Result) FaultsFired() int {
	n := 0
	for _, f := range r.Faults {
		if f.Fired {
			n++
		}
	}
	return n
}

// Unfired returns the faults of r that did not fire.
func (r *Result) Unfired() []FaultFiring {
	var out []FaultFiring
	for _, f := range r.Faults {
		if !f.Fired {
			out = append(out, f)
		}
	}
	return out
}

// FaultsSummary is "faults fired: 2 of 3; crash n1 at=5s did not fire:
// the run ends at 1s", or "" for a scenario without faults.
func (r *Result) FaultsSummary() string {
	if len(r.Faults) == 0 {
		return ""
	}
	s := fmt.Sprintf("faults fired: %d of %d", r.FaultsFired(), len(r.Faults))
	for _, f := range r.Unfired() {
		s += fmt.Sprintf("; %s did not fire: %s", f.Fault, f.Why)
	}
	return s
}

// markFired records that the i-th fault of the scenario fired now.
func (w *world) markFired(i int) {
	if !w.fired[i].Fired {
		w.fired[i].Fired, w.fired[i].At = true, w.s.Now()
	}
}

// faultFirings is the firing record of every fault at the end of the run,
// with the reason for each that did not fire.
func (w *world) faultFirings() []FaultFiring {
	out := make([]FaultFiring, len(w.sc.Faults))
	for i, f := range w.sc.Faults {
		out[i] = w.fired[i]
		out[i].Fault = scenario.FormatFault(f)
		if !out[i].Fired {
			out[i].Why = w.whyNotFired(i, f)
		}
		if w.drawn != nil {
			out[i].Schedule, out[i].Of = w.drawn.from[i].text, w.drawn.from[i].of
		}
	}
	return append(out, w.drewNone()...)
}

// drewNone is a firing record, not fired, of every schedule that drew no
// occurrence in the run.
func (w *world) drewNone() []FaultFiring {
	if w.drawn == nil {
		return nil
	}
	var out []FaultFiring
	for _, o := range w.drawn.empty {
		out = append(out, FaultFiring{Fault: o.text, Schedule: o.text, Of: o.of,
			Why: fmt.Sprintf("the schedule drew no occurrence in the run's %v", w.sc.Duration)})
	}
	return out
}

// whyNotFired explains, as precisely as the run can tell, why f did not
// fire.
func (w *world) whyNotFired(i int, f fault.Fault) string {
	if !f.When.Triggered() {
		if f.When.At > w.sc.Duration {
			return "the run ends at " + w.sc.Duration.String()
		}
		return "the run stopped before " + f.When.At.String()
	}
	if f.When.Point == fault.AcquireAttempt && !w.reached[i] {
		return whyNoAttempt(w.clientNamed(f.When.Client), f.When.Client, f.When.N)
	}
	if w.reached[i] {
		return fmt.Sprintf("%s reached %s, but after=%v lands past the run's end (%v)", f.When.Client, f.When.Point, f.When.After, w.sc.Duration)
	}
	reached := 0
	if c := w.clientNamed(f.When.Client); c != nil {
		reached = c.points[f.When.Point]
	}
	switch reached {
	case 0:
		return fmt.Sprintf("%s never reached %s in the run's %v", f.When.Client, f.When.Point, w.sc.Duration)
	case 1:
		return fmt.Sprintf("%s reached %s only once in the run's %v (n=%d)", f.When.Client, f.When.Point, w.sc.Duration, f.When.N)
	}
	return fmt.Sprintf("%s reached %s only %d times in the run's %v (n=%d)", f.When.Client, f.When.Point, reached, w.sc.Duration, f.When.N)
}

// clientNamed returns the client called name, or nil.
func (w *world) clientNamed(name string) *client {
	i := fault.Index(name)
	if !fault.IsClient(name) || i >= len(w.clients) {
		return nil
	}
	return w.clients[i]
}
