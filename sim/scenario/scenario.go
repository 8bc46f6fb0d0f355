package scenario

import (
	"fmt"
	"time"

	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/network"
)

// Scenario is one simulation's setup.
type Scenario struct {
	Name     string
	Summary  string
	Nodes    int // 0: the pattern's own node count
	Clients  int
	TTL      time.Duration
	Duration time.Duration
	Replicas time.Duration // replication delay (the mean, under a distribution); 0: no replicas
	Workload Workload
	Net      Net
	// ReplicaLag draws each write's delay to each replica around Replicas.
	ReplicaLag Lag
	// ReplicaCount is the replicas per node (0: one), so that a node can
	// fail over that many times.
	ReplicaCount int
	// Pattern sets the pattern's options (the pattern directive).
	Pattern PatternOptions
	Faults  []fault.Fault

	lines       []int // source line of each fault, for error messages
	patternLine int   // source line of the pattern directive, or 0
	// fieldLines: the source line of ttl and retry-delay (start's ttl,
	// workload's retry), whichever line gave them
	fieldLines map[string]int
}

// Workload is what every client does.
type Workload struct {
	Work           time.Duration // mean work inside the critical section
	Jitter         time.Duration // work is uniform in [Work-Jitter, Work+Jitter]
	Think          time.Duration // pause between critical sections
	Prep           time.Duration // time to prepare the write after the lease check
	Check          bool          // check lease.Err() before writing
	AcquireTimeout time.Duration // bound on each Acquire
	Retry          time.Duration // first retry backoff (locks.Retry.Delay)
	// Reenter makes each critical section take the lock a second time,
	// nested, and give that inner holding back after the work, before the
	// lease check and the write: what code that calls a locked helper from
	// a locked section does. Only reentrant patterns can take it twice.
	Reenter bool
	// ExtendEvery > 0 makes the client extend its lease by hand, when the
	// pattern implements locks.Extender: at ExtendOn "work" (or ""), after
	// every ExtendEvery of its work; at "write", once, after the lease
	// check and before the write is prepared. A careful client (Check)
	// abandons the section when an extension is refused; a careless one
	// goes on.
	ExtendEvery time.Duration
	ExtendOn    string
	// Misuse makes each client, after every release, release the same
	// lease again (a duplicate), its previous lease (stale) and the last
	// lease another client acquired (foreign), unrecorded: what a careless
	// program does. A lock that honours any of them frees a holder's lock,
	// which the oracles then see as an overlap.
	Misuse bool
}

// Extension points of Workload.ExtendOn.
const (
	ExtendOnWork  = "work"
	ExtendOnWrite = "write"
)

// Net is the network's behaviour.
type Net struct {
	Latency network.Latency
	LossPPM int64
	Timeout time.Duration // client-side read timeout
}

// Default returns a scenario with every default filled in.
func Default() Scenario {
	return Scenario{
		Clients: 2, TTL: 100 * time.Millisecond, Duration: time.Second,
		Workload: Workload{Work: 20 * time.Millisecond, Jitter: 10 * time.Millisecond,
			Think: 10 * time.Millisecond, Check: true, AcquireTimeout: time.Second, Retry: 10 * time.Millisecond},
		Net: Net{Latency: network.DefaultLatency, Timeout: 3 * time.Second},
	}
}

// Resolve fixes the node count (nodes, when the scenario leaves it to the
// pattern) and validates everything.
func (s Scenario) Resolve(nodes int) (Scenario, error) {
	if s.Nodes == 0 {
		s.Nodes = nodes
	}
	return s, s.Validate()
}

// Validate checks the scenario; errors name the directive, the field and,
// for a parsed fault, its line.
func (s Scenario) Validate() error {
	if err := s.validateStart(); err != nil {
		return err
	}
	if err := s.Workload.validate(); err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	if err := s.Net.validate(); err != nil {
		return fmt.Errorf("net: %w", err)
	}
	if err := s.Pattern.validate(); err != nil {
		if s.patternLine > 0 {
			return fmt.Errorf("line %d: pattern: %w", s.patternLine, err)
		}
		return fmt.Errorf("pattern: %w", err)
	}
	if err := s.checkLock(); err != nil {
		return err
	}
	if err := s.validateReplicas(); err != nil {
		return err
	}
	nodes := s.Nodes
	if nodes == 0 {
		nodes = maxNodes // node names are checked again once Resolve knows the count
	}
	for i, f := range s.Faults {
		if (f.Kind == fault.Failover || f.Kind == fault.SplitBrain) && s.Replicas == 0 {
			return s.faultErr(i, fmt.Errorf("%s needs replicas (add a line: replicas delay=50ms)", f.Kind))
		}
		if err := f.Validate(nodes, s.Clients); err != nil {
			return s.faultErr(i, err)
		}
	}
	return s.validateBounds(s.Nodes)
}

// maxNodes bounds the node count.
const maxNodes = 99

func (s Scenario) faultErr(i int, err error) error {
	f := s.Faults[i]
	if i < len(s.lines) && s.lines[i] > 0 {
		return fmt.Errorf("line %d: %s: %w", s.lines[i], f.Kind, err)
	}
	return fmt.Errorf("fault %d (%s): %w", i+1, f.Kind, err)
}

// validateStart checks the start line's fields other than the TTL, which
// the lock's own rules check (checkLock).
func (s Scenario) validateStart() error {
	switch {
	case s.Nodes < 0 || s.Nodes > maxNodes:
		return fmt.Errorf("start: field nodes: %d outside [0, %d]", s.Nodes, maxNodes)
	case s.Clients < 1:
		return fmt.Errorf("start: field clients: %d, want at least 1", s.Clients)
	case s.Clients > 1000:
		return fmt.Errorf("start: field clients: %d, want at most 1000", s.Clients)
	case s.Duration <= 0:
		return fmt.Errorf("start: field duration: %v, want a positive duration", s.Duration)
	case s.Duration > 24*time.Hour:
		return fmt.Errorf("start: field duration: %v, want at most 24h", s.Duration)
	}
	return nil
}

// validate checks the workload's fields other than retry, the lock's
// first backoff, which the lock's own rules check (checkLock).
func (w Workload) validate() error {
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"work", w.Work}, {"jitter", w.Jitter}, {"think", w.Think}, {"prep", w.Prep}, {"extend-every", w.ExtendEvery}} {
		if f.d < 0 {
			return fmt.Errorf("field %s: %v is negative", f.name, f.d)
		}
	}
	if w.Jitter > w.Work {
		return fmt.Errorf("field jitter: %v is more than work (%v)", w.Jitter, w.Work)
	}
	if w.AcquireTimeout <= 0 {
		return fmt.Errorf("field acquire-timeout: %v, want a positive duration", w.AcquireTimeout)
	}
	return w.validateExtend()
}

func (w Workload) validateExtend() error {
	switch w.ExtendOn {
	case "", ExtendOnWork, ExtendOnWrite:
	default:
		return fmt.Errorf("field extend-on: %q, want work or write", w.ExtendOn)
	}
	if w.ExtendOn != "" && w.ExtendEvery == 0 {
		return fmt.Errorf("field extend-on: %s, but extend-every is 0 (no extension)", w.ExtendOn)
	}
	return nil
}

func (n Net) validate() error {
	if err := n.Latency.Validate(); err != nil {
		return err
	}
	if n.LossPPM < 0 || n.LossPPM > 1_000_000 {
		return fmt.Errorf("field loss: %dppm outside [0, 100%%]", n.LossPPM)
	}
	if n.Timeout <= 0 {
		return fmt.Errorf("field timeout: %v, want a positive duration", n.Timeout)
	}
	return nil
}
