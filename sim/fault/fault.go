package fault

import (
	"fmt"
	"strings"
	"time"
)

// Dir is a message's direction on a link: faults name it as data, so
// that faults and scenarios depend on no simulator machinery (the
// network simulates it, real mode's proxies perform it).
type Dir uint8

// Directions.
const (
	Request Dir = 1 << iota // client to endpoint
	Reply                   // endpoint to client
	Both    = Request | Reply
)

// Kind is what a fault does.
type Kind string

// Fault kinds.
const (
	Pause     Kind = "pause"     // Target (a client) stops for For: none of its goroutines runs
	Starve    Kind = "starve"    // Target's background goroutines (the watchdog) get no CPU for For; its workload runs on
	Slow      Kind = "slow"      // Target's next workload step takes For longer; its other goroutines run
	Jump      Kind = "jump"      // Target's wall clock steps by By
	Drift     Kind = "drift"     // Target's clocks run at 1 + PPM/1e6 from then on
	Crash     Kind = "crash"     // Target (a node) is down for For (0: for good), then restarts
	Failover  Kind = "failover"  // Target's most up-to-date replica is promoted; unreplicated writes are lost
	Partition Kind = "partition" // every client–node (or client–db) link between A and B is cut for For
	SlowLink  Kind = "slowlink"  // those links get By more latency in Dir for For
	Loss      Kind = "loss"      // those links lose PPM per million messages for For
	BlackHole Kind = "blackhole" // those links deliver and execute requests but swallow every reply, silently, for For
)

// SplitBrain: Target fails over while its old primary stays up, serving
// the clients A (cut off with it), for For (0: until the run ends); then
// it rejoins as a replica of the new primary and its writes are lost.
const SplitBrain Kind = "splitbrain"

// Kinds lists every kind with a one-line summary, for `locksim list`.
var Kinds = []struct {
	Kind    Kind
	Summary string
}{
	{Pause, "client stop-the-world pause (GC): none of its goroutines runs, the watchdog included"},
	{Starve, "a CPU-starved client: its background goroutines (the watchdog) do not run for a while, its workload runs on"},
	{Slow, "a client's workload step (work, or preparing the write) takes longer; its watchdog keeps running"},
	{Jump, "a client's or node's wall clock steps forward or back (node TTLs follow it)"},
	{Drift, "a client's or node's clock runs fast or slow"},
	{Crash, "a node goes down and restarts: persist=no loses its data (the fence counter with it), persist=everysec the writes after the last fsync (once a second), persist=yes (always) nothing"},
	{Failover, "a node's most up-to-date replica is promoted; writes it had not received are lost (replicas n=N: N failovers; delay=exp(D) or uniform(D): drawn lags)"},
	{SplitBrain, "split brain: a node fails over while its old primary stays up and serves the clients old= names, which keep writing to it; after for= it rejoins as a replica of the new primary (REPLICAOF) and loses those writes"},
	{Partition, "client–node links are cut"},
	{SlowLink, "client–node links get extra latency, in one or both directions"},
	{Loss, "client–node links lose a share of their messages"},
	{BlackHole, "a half-open connection: requests reach the node and are executed, replies never come back and nothing says so (calls end on the client's timeout)"},
}

// When is a fault's trigger: true time At, or — if Point is set — the N-th
// time (from 1) that Client reaches Point, and then After later (an
// offset in true time from the point: 0 fires at once, before the client
// goes on).
type When struct {
	At     time.Duration
	Client string
	Point  Point
	N      int
	After  time.Duration
}

// Triggered reports whether the fault waits for a workload point.
func (w When) Triggered() bool { return w.Point != "" }

// Fault is one fault.
type Fault struct {
	Kind    Kind
	When    When
	Target  string        // "c1" or "n2" for the kinds that have one
	A, B    []string      // the two sides, for Partition, SlowLink and Loss; A: SplitBrain's old side
	For     time.Duration // how long it lasts (0: until the run ends, where that makes sense)
	By      time.Duration // Jump: the step; SlowLink: the extra latency
	PPM     int64         // Drift: rate; Loss: loss rate (parts per million)
	Persist bool          // Crash: the node keeps its data over the restart
	Dir     Dir           // SlowLink: which direction (default both)
	// EverySec (Crash, with Persist): the node's AOF is fsynced once a
	// second (appendfsync everysec), so the restart loses the writes
	// acknowledged after the last fsync point; without it every write is
	// synced (appendfsync always).
	EverySec bool
	// Sched, when set, makes the fault a schedule of occurrences drawn
	// over the run (see Schedule and IsSchedule).
	Sched Schedule
}

// FsyncEvery is the fsync interval of a node under persist=everysec
// (Redis's appendfsync everysec). Fsync points fall on its multiples of
// true time.
const FsyncEvery = time.Second

// IsClient and IsNode tell the two kinds of name apart: c1, c2… and n1, n2…
// ("db" is the protected store, a valid side of a link fault).
func IsClient(name string) bool { return isIndexed(name, 'c') }

// IsNode reports whether name is a node name (n1, n2, …).
func IsNode(name string) bool { return isIndexed(name, 'n') }

// Index returns the 0-based index of c3 or n3 (2), or -1.
func Index(name string) int {
	if !IsClient(name) && !IsNode(name) {
		return -1
	}
	n := 0
	for _, r := range name[1:] {
		n = n*10 + int(r-'0')
	}
	return n - 1
}

func isIndexed(name string, prefix byte) bool {
	if len(name) < 2 || name[0] != prefix || name[1] == '0' {
		return false
	}
	for _, r := range name[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return len(name) < 6
}

// Validate checks the fault against a run of nodes nodes and clients
// clients, naming the first bad field.
func (f Fault) Validate(nodes, clients int) error {
	if f.IsSchedule() {
		if err := f.validateSchedule(nodes, clients); err != nil {
			return err
		}
		f = f.representative()
	}
	// The target before the trigger: a fault on a client the run lacks is
	// its target's error, not that of the on= that names the client again.
	if err := f.validateTarget(nodes, clients); err != nil {
		return err
	}
	if err := f.validateWhen(clients); err != nil {
		return err
	}
	switch f.Kind {
	case Pause, Slow, Starve:
		return positive("for", f.For)
	case Jump:
		return nonZero("by", f.By)
	case Drift:
		return driftRange(f.PPM)
	case Crash:
		return f.needs(nonNegative("for", f.For), f.everySec())
	case Failover:
		return nil
	case SplitBrain:
		return f.needs(nonNegative("for", f.For), f.oldSide(clients))
	case Partition, BlackHole:
		return nonNegative("for", f.For)
	case SlowLink:
		return f.needs(nonNegative("for", f.For), positive("by", f.By))
	case Loss:
		return f.needs(nonNegative("for", f.For), lossRange(f.PPM))
	}
	return fmt.Errorf("field kind: unknown fault %q", f.Kind)
}

// validateTarget checks the fault's target (or its link's sides) against
// its kind and the run.
func (f Fault) validateTarget(nodes, clients int) error {
	switch f.Kind {
	case Pause, Slow, Starve:
		return clientTarget(f.Target, clients)
	case Jump, Drift:
		return anyTarget(f.Target, nodes, clients)
	case Crash, Failover, SplitBrain:
		return nodeTarget(f.Target, nodes)
	case Partition, SlowLink, Loss, BlackHole:
		return f.sides(nodes, clients)
	}
	return fmt.Errorf("field kind: unknown fault %q", f.Kind)
}

func (f Fault) everySec() error {
	if f.EverySec && !f.Persist {
		return fmt.Errorf("field persist: everysec is a persistence mode; Persist must be set with EverySec")
	}
	return nil
}

func (f Fault) needs(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (f Fault) validateWhen(clients int) error {
	w := f.When
	if !w.Triggered() {
		if w.At < 0 {
			return fmt.Errorf("field at: %v is negative", w.At)
		}
		if w.After != 0 {
			return fmt.Errorf("field after: only with on= (an offset from a workload point)")
		}
		return nil
	}
	if w.After < 0 {
		return fmt.Errorf("field after: %v is negative", w.After)
	}
	on := "on=" + w.Client + ":" + string(w.Point)
	if err := clientName("on", w.Client, clients); err != nil {
		return fmt.Errorf("%w (%s)", err, on)
	}
	if !ValidPoint(w.Point) {
		return unknownPoint(w.Point, on)
	}
	if w.N < 1 {
		return fmt.Errorf("field n: %d, want at least 1", w.N)
	}
	return nil
}

// unknownPoint is the error of a point no client reaches, naming the
// call kind when the point is KIND-sent or KIND-reply.
func unknownPoint(p Point, on string) error {
	for _, suffix := range []string{"-sent", "-reply"} {
		kind, call := strings.CutSuffix(string(p), suffix)
		if _, known := callPoints[kind]; call && !known {
			return fmt.Errorf("field on: unknown call kind %q in %s (known: %s)", kind, on, CallKindNames())
		}
	}
	return fmt.Errorf("field on: unknown point %q in %s (known: %s)", p, on, PointNames())
}

func (f Fault) sides(nodes, clients int) error {
	if len(f.A) == 0 || len(f.B) == 0 {
		return fmt.Errorf("field sides: want A|B with names on both sides, got %q", strings.Join(f.A, ",")+"|"+strings.Join(f.B, ","))
	}
	pairs := 0
	for _, side := range [][]string{f.A, f.B} {
		for _, name := range side {
			if err := linkEnd(name, nodes, clients); err != nil {
				return err
			}
		}
	}
	for _, a := range f.A {
		for _, b := range f.B {
			if IsClient(a) != IsClient(b) {
				pairs++
			}
		}
	}
	if pairs == 0 {
		return fmt.Errorf("field sides: %s|%s joins no client to a node or db", strings.Join(f.A, ","), strings.Join(f.B, ","))
	}
	return nil
}
