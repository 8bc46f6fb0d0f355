package sim

import (
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/oracle"
)

// LossSignal is what the loss-signal oracle (oracle.Loss) measured in a
// run.
type LossSignal = oracle.LossSignal

// LossSignalBound is the loss-signal latency a pattern with claims c
// promises under a scenario's TTL: c.LossSignal percent of it (0: no
// claim).
func LossSignalBound(c pattern.Claims, ttl time.Duration) time.Duration {
	return oracle.LossSignalBound(c, ttl)
}

// PausedWithin is how long, within [from, to], the process of the client
// named client was paused: the union of the stretches of its pause
// faults among events. The loss-signal oracles of the simulator and of
// real mode leave it out of a holder's latency.
func PausedWithin(events []history.Event, client string, from, to int64) int64 {
	return oracle.PausedWithin(events, client, from, to)
}
