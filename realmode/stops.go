package realmode

import (
	"fmt"
	"strings"
	"time"

	"github.com/locksim/locksim/sim"
)

// StopFraction is the share of the TTL past which a client's largest
// unplanned stop marks its run (Result.Descheduled): the machine, not
// the scenario, stopped a client long enough to matter to its lease.
const StopFraction = 4 // TTL/4

// ClientStop is one client's largest unplanned stop: the longest gap its
// process's heartbeat (a goroutine ticking every 2ms) saw, less the
// pauses the scenario planned (SIGSTOP to SIGCONT) within it. Gaps under
// two ticks (4ms) are not reported by the client: a Max under 4ms means
// none longer was seen.
type ClientStop struct {
	Client string        `json:"client"`
	Max    time.Duration `json:"max_ns"`
	At     int64         `json:"at_ns"` // when it ended, in true time
}

// stopsResult is each client's largest unplanned stop, and whether some
// exceeded TTL/StopFraction (the caller holds c.mu).
func (c *coord) stopsResult() ([]ClientStop, bool) {
	out := make([]ClientStop, len(c.state))
	over := false
	for i, st := range c.state {
		out[i].Client = st.name
	}
	for _, s := range c.stalls {
		d := time.Duration(s.to - s.from - sim.PausedWithin(c.hist.Events, c.state[s.client].name, s.from, s.to))
		if d > out[s.client].Max {
			out[s.client].Max, out[s.client].At = d, s.to
		}
	}
	for _, s := range out {
		over = over || s.Max > c.sc.TTL/StopFraction
	}
	return out, over
}

// notJudged lists the claims of the run that real mode could not judge,
// each with the reason (the caller holds c.mu).
func (c *coord) notJudged(ls sim.LossSignal) []string {
	var out []string
	if c.cfg.Pattern.Claims.LossSignal > 0 && ls.Untracked > 0 && ls.Losses == 0 && ls.Untracked == c.grants {
		out = append(out, fmt.Sprintf("%s: none of the run's %d holdings was found on a quorum of the nodes where the pattern says it lives (its token at its key, or Pattern.Holding)",
			sim.ClaimLossSignal, ls.Untracked))
	}
	return out
}

// StopsSummary says each client's largest unplanned stop on one line,
// marking those past TTL/StopFraction.
func (r *Result) StopsSummary(ttl time.Duration) string {
	var parts []string
	for _, s := range r.Stops {
		switch {
		case s.Max < stallReport:
			parts = append(parts, fmt.Sprintf("%s <%v", s.Client, stallReport))
		case ttl > 0 && s.Max > ttl/StopFraction:
			parts = append(parts, fmt.Sprintf("%s %v (past TTL/%d)", s.Client, s.Max.Round(time.Millisecond), StopFraction))
		default:
			parts = append(parts, fmt.Sprintf("%s %v", s.Client, s.Max.Round(time.Millisecond)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "largest unplanned stops: " + strings.Join(parts, ", ")
}

// LossSummary says what the loss-signal oracle measured, on one line.
func (r *Result) LossSummary() string {
	ls := r.LossSignal
	s := fmt.Sprintf("loss-signal: %d losses, %d signalled, %d late", ls.Losses, ls.Signalled, ls.Late)
	if ls.Losses > 0 {
		s += fmt.Sprintf(" (max %v, p99 %v", ls.Max.Round(time.Microsecond), ls.P99.Round(time.Microsecond))
		if ls.Bound > 0 {
			s += fmt.Sprintf(", bound %v", ls.Bound)
		}
		s += ")"
	} else if ls.Bound > 0 {
		s += fmt.Sprintf(" (bound %v)", ls.Bound)
	}
	if ls.Blind > 0 {
		s += fmt.Sprintf(", %d acted on blind", ls.Blind)
	}
	if ls.Untracked > 0 {
		s += fmt.Sprintf(", %d holdings not measured (not on a quorum at their grant)", ls.Untracked)
	}
	return s
}
