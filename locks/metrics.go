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

// The counters' nil-safe increments (a nil *Metrics records nothing).

func (m *Metrics) attempted() {
	if m != nil {
		m.Attempts.Add(1)
	}
}

func (m *Metrics) failed() {
	if m != nil {
		m.Failed.Add(1)
	}
}

func (m *Metrics) acquired() {
	if m != nil {
		m.Acquired.Add(1)
	}
}

func (m *Metrics) released() {
	if m != nil {
		m.Released.Add(1)
	}
}

func (m *Metrics) renewed() {
	if m != nil {
		m.Renewals.Add(1)
	}
}

func (m *Metrics) renewFailed() {
	if m != nil {
		m.RenewErrors.Add(1)
	}
}

func (m *Metrics) lost() {
	if m != nil {
		m.Lost.Add(1)
	}
}

// waited records the time an Acquire spent, from its call to a grant.
func (m *Metrics) waited(d time.Duration) {
	if m != nil {
		m.Waits.Observe(d)
	}
}
