package simprop

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// Envelope is a fault envelope: the faults a property draws, each kind
// with its bounds. A kind whose rule is the zero value is never drawn.
// Admits tells whether a schedule lies inside it, so that a schedule read
// back from a file can be held to the same rules as a generated one.
type Envelope struct {
	Name      string
	MaxFaults int // faults per schedule, at most
	// Pause and Slow bound the faults that stop a client (pause: none of
	// its goroutines runs) or lengthen one of its workload steps (slow: its
	// other goroutines, a watchdog, keep running).
	Pause, Slow Steps
	// Client and Node bound the clocks of the clients and of the nodes.
	Client, Node Clocks
	Links        Links
	Crash        Crashes
	Failover     bool // a node's replica may be promoted (async replication loses writes)
}

// Steps bounds pauses or slow steps of a client.
type Steps struct {
	// Timed: the fault may start at any true time (pauses only: a timed
	// slow step would land on whatever step the client takes next).
	Timed bool
	// Points: the fault may start when the client itself reaches one of
	// these workload points.
	Points []fault.Point
	Max    time.Duration // longest pause or slowdown
}

func (s Steps) any() bool { return s.Max > 0 && (s.Timed || len(s.Points) > 0) }

// Clocks bounds clock faults of one kind of process.
type Clocks struct {
	Jump    time.Duration // largest |step| of a wall-clock jump; 0: no jumps
	Forward bool          // jumps may go forward (else backward only)
	Drift   int64         // largest |drift|, parts per million; 0: no drift
}

// Links bounds faults of client–node and client–store links.
type Links struct {
	Partition bool
	Loss      bool
	Slow      time.Duration // largest extra one-way delay of one slow link; 0: none
	// DB: the store ("db") may be a side of partitions and losses; DBSlow:
	// of slow links too (a write that arrives late).
	DB, DBSlow bool
}

func (l Links) any() bool { return l.Partition || l.Loss || l.Slow > 0 }

// Crashes bounds node crashes.
type Crashes struct {
	// Persist: a node may crash and restart with its data (or stay down).
	Persist bool
	// Volatile: a node may restart without its data, but only after being
	// down at least this long (a delayed restart); 0: never.
	Volatile time.Duration
	// Minority: with several nodes, at most ⌊N/2⌋ distinct nodes crash.
	Minority bool
}

// Every envelope lets a node crash at most once: two crashes of one node
// would overlap, and the later restart would take a node that is up (and
// has been since the earlier restart) down and up again at once — without
// persistence, an immediate restart that no delayed-restart bound allows.

func (c Crashes) any() bool { return c.Persist || c.Volatile > 0 }

// maxCrashed is how many distinct nodes may crash in a run of nodes nodes.
func (c Crashes) maxCrashed(nodes int) int {
	if c.Minority && nodes > 1 {
		return nodes / 2
	}
	return nodes
}

// Admits reports whether every fault of s lies inside e, naming the first
// that does not.
func (e Envelope) Admits(s scenario.Scenario) error {
	if len(s.Faults) > e.MaxFaults {
		return fmt.Errorf("envelope %s: %d faults, at most %d", e.Name, len(s.Faults), e.MaxFaults)
	}
	crashed := map[string]bool{}
	for i, f := range s.Faults {
		if err := e.admit(f); err != nil {
			return fmt.Errorf("envelope %s: fault %d (%s): %w", e.Name, i+1, scenario.FormatFault(f), err)
		}
		if f.Kind == fault.Crash {
			if crashed[f.Target] {
				return fmt.Errorf("envelope %s: fault %d (%s): %s crashes twice", e.Name, i+1, scenario.FormatFault(f), f.Target)
			}
			crashed[f.Target] = true
		}
	}
	if n := e.Crash.maxCrashed(s.Nodes); len(crashed) > n {
		return fmt.Errorf("envelope %s: %d distinct nodes crash, at most %d", e.Name, len(crashed), n)
	}
	return nil
}

func (e Envelope) admit(f fault.Fault) error {
	switch f.Kind {
	case fault.Pause:
		return e.Pause.admit(f)
	case fault.Slow:
		if f.When.Triggered() || !e.Slow.any() {
			return e.Slow.admit(f)
		}
		return fmt.Errorf("a slow step must be triggered at a workload point")
	case fault.Jump:
		return e.clocks(f.Target).admitJump(f.By)
	case fault.Drift:
		return e.clocks(f.Target).admitDrift(f.PPM)
	case fault.Partition, fault.Loss, fault.SlowLink:
		return e.Links.admit(f)
	case fault.Crash:
		return e.Crash.admit(f)
	case fault.Failover:
		if e.Failover {
			return nil
		}
		return fmt.Errorf("failover is outside the envelope")
	}
	return fmt.Errorf("unknown kind %q", f.Kind)
}

func (e Envelope) clocks(target string) Clocks {
	if fault.IsNode(target) {
		return e.Node
	}
	return e.Client
}

func (s Steps) admit(f fault.Fault) error {
	switch {
	case !s.any():
		return fmt.Errorf("%s is outside the envelope", f.Kind)
	case f.For > s.Max:
		return fmt.Errorf("lasts %v, at most %v", f.For, s.Max)
	case !f.When.Triggered():
		if s.Timed {
			return nil
		}
		return fmt.Errorf("must be triggered at a workload point (%s)", points(s.Points))
	case f.When.Client != f.Target:
		return fmt.Errorf("must be triggered by its own client, not %s", f.When.Client)
	case !slices.Contains(s.Points, f.When.Point):
		return fmt.Errorf("at point %s, allowed only at %s", f.When.Point, points(s.Points))
	}
	return nil
}

func points(ps []fault.Point) string {
	var out []string
	for _, p := range ps {
		out = append(out, string(p))
	}
	return strings.Join(out, ", ")
}

func (c Clocks) admitJump(by time.Duration) error {
	switch {
	case c.Jump == 0:
		return fmt.Errorf("clock jumps are outside the envelope")
	case by > 0 && !c.Forward:
		return fmt.Errorf("jumps forward by %v; only backward jumps are inside", by)
	case by > c.Jump || -by > c.Jump:
		return fmt.Errorf("jumps by %v, at most ±%v", by, c.Jump)
	}
	return nil
}

func (c Clocks) admitDrift(ppm int64) error {
	if ppm > c.Drift || -ppm > c.Drift {
		return fmt.Errorf("drift %dppm, at most ±%dppm", ppm, c.Drift)
	}
	return nil
}

func (l Links) admit(f fault.Fault) error {
	db := slices.Contains(f.A, "db") || slices.Contains(f.B, "db")
	switch {
	case f.Kind == fault.Partition && !l.Partition, f.Kind == fault.Loss && !l.Loss, f.Kind == fault.SlowLink && l.Slow == 0:
		return fmt.Errorf("%s is outside the envelope", f.Kind)
	case db && !l.DB:
		return fmt.Errorf("the store is not a link side inside the envelope")
	case f.Kind == fault.SlowLink && db && !l.DBSlow:
		return fmt.Errorf("a slow link to the store is outside the envelope")
	case f.Kind == fault.SlowLink && f.By > l.Slow:
		return fmt.Errorf("adds %v, at most %v", f.By, l.Slow)
	case f.Kind == fault.SlowLink && f.Dir != fault.Request && f.Dir != fault.Reply && f.Dir != fault.Both:
		return fmt.Errorf("direction %d", f.Dir)
	}
	return nil
}

func (c Crashes) admit(f fault.Fault) error {
	switch {
	case !c.any():
		return fmt.Errorf("crashes are outside the envelope")
	case f.For == 0:
		return nil // down for good: nothing comes back to contradict a holder
	case f.Persist && c.Persist:
		return nil
	case f.Persist:
		return fmt.Errorf("a restart with persistence is outside the envelope")
	case c.Volatile == 0:
		return fmt.Errorf("a restart without persistence is outside the envelope")
	case f.For < c.Volatile:
		return fmt.Errorf("restarts without persistence after %v, want a delayed restart (at least %v)", f.For, c.Volatile)
	}
	return nil
}
