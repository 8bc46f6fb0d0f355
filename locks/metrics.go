package locks

import (
	"sync/atomic"
	"time"
)

// Metrics counts what the patterns given it (Options.Metrics) did. The zero
// value is ready; a nil *Metrics records nothing. Safe for concurrent use.
type Metrics struct {
	Acquired    atomic.Int64 // successful acquisitions (re-entries included)
	Failed      atomic.Int64 // Acquire calls that returned an error
	Attempts    atomic.Int64 // acquisition attempts, retries included
	Released    atomic.Int64 // successful releases
	Renewals    atomic.Int64 // successful watchdog renewals
	RenewErrors atomic.Int64 // renewals whose outcome was an error
	Lost        atomic.Int64 // holdings lost while held
	Waits       Histogram    // time from Acquire to grant
}

// Snapshot is a plain copy of the counters.
type Snapshot struct {
	Acquired, Failed, Attempts, Released, Renewals, RenewErrors, Lost int64
}

// Snapshot copies the counters.
func (m *Metrics) Snapshot() Snapshot {
	if m == nil {
		return Snapshot{}
	}
	return Snapshot{
		Acquired: m.Acquired.Load(), Failed: m.Failed.Load(), Attempts: m.Attempts.Load(),
		Released: m.Released.Load(), Renewals: m.Renewals.Load(),
		RenewErrors: m.RenewErrors.Load(), Lost: m.Lost.Load(),
	}
}

// counter picks one of the counters of a Metrics.
type counter func(*Metrics) *atomic.Int64

// add counts one into the counter c picks; a nil *Metrics records nothing.
func (m *Metrics) add(c counter) {
	if m != nil {
		c(m).Add(1)
	}
}

// The counters' increments, one per event the patterns count.

func (m *Metrics) attempted()   { m.add(func(m *Metrics) *atomic.Int64 { return &m.Attempts }) }
func (m *Metrics) failed()      { m.add(func(m *Metrics) *atomic.Int64 { return &m.Failed }) }
func (m *Metrics) acquired()    { m.add(func(m *Metrics) *atomic.Int64 { return &m.Acquired }) }
func (m *Metrics) released()    { m.add(func(m *Metrics) *atomic.Int64 { return &m.Released }) }
func (m *Metrics) renewed()     { m.add(func(m *Metrics) *atomic.Int64 { return &m.Renewals }) }
func (m *Metrics) renewFailed() { m.add(func(m *Metrics) *atomic.Int64 { return &m.RenewErrors }) }
func (m *Metrics) lost()        { m.add(func(m *Metrics) *atomic.Int64 { return &m.Lost }) }

// waited records the time an Acquire spent, from its call to a grant.
func (m *Metrics) waited(d time.Duration) {
	if m != nil {
		m.Waits.Observe(d)
	}
}
