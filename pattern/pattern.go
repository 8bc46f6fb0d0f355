package pattern

import (
	"fmt"
	"strings"

	"github.com/locksim/locksim/locks"
)

// Claims is what a pattern promises; the gate checks exactly these.
type Claims struct {
	// Mutex: no two clients hold the lock at one instant of true time,
	// under the faults the pattern is meant to tolerate.
	Mutex bool
	// SafeStore: a store that checks fencing tokens never loses an update.
	SafeStore bool
	// Fencing: acquisitions carry strictly increasing fencing tokens.
	Fencing bool
	// MaxHolders: at most this many clients hold at one instant of true
	// time (a semaphore's N); 0 makes no such claim (Mutex claims 1).
	MaxHolders int
	// Progress: the lock is never free for longer than this many TTLs of
	// true time, from the moment no client holds it (its holder released
	// it, or is gone) until some client is granted it; 0 makes no such
	// claim. A lock held on after its release, or a queue that serves
	// nobody, breaks it; one client starving while others take turns does
	// not.
	Progress int
	// LossSignal: the holder learns that it lost the lock — its lease's
	// Done closes, or Err or Release tells it — within this many percent
	// of the TTL, in true time, after the lock stopped being its own on
	// the server (its key expired, was deleted or was granted to another
	// owner on the node, or on a quorum of the nodes, that decide); 0
	// makes no such claim. A Done that waits for a renewal's reply through
	// a black-holed connection breaks it, and so does a timer starved of
	// CPU; the time the holder's whole process was paused is not counted
	// (nothing can tell a stopped process).
	LossSignal int
}

// Loss-signal bounds the built-in patterns claim (Claims.LossSignal), in
// percent of the TTL. LossSignalTimer is a pattern's whose only signal is
// its validity timer (Basic, Fenced, Reentrant, Redlock, Fair and
// fair-fenced, both sides of RWLock, Semaphore): the timer fires when the
// validity runs out on the holder's clock, before the key (for Redlock,
// the quorum's keys; for a permit or a reader, its own key) expires on
// the server, so the bound is the slack of the drift allowance (1% of the
// TTL). LossSignalRenewal is a renewing pattern's (Watchdog, Service,
// their fenced variants, the Redlock watchdog): a lock lost between
// renewals (the key deleted, a failover) is learnt from the next
// renewal's reply, RenewEvery (TTL/3) later, each attempt bounded by at
// most RenewEvery more, or from the validity timer, whichever comes
// first: two thirds of the TTL, and a little for the round trip.
const (
	LossSignalTimer   = 1
	LossSignalRenewal = 70
)

// ProgressTTLs is the progress bound, in TTLs, that the built-in patterns
// claim (Claims.Progress): after the lock becomes free — released, or its
// holder gone and its key expired — some waiting client holds it again
// within this many TTLs of true time.
const ProgressTTLs = 5

// Names names the claims as results report them: mutex, safe-store,
// fencing, and max-holders for a holder limit that is not a mutex (a
// mutex's limit of one is its mutex claim).
func (c Claims) Names() []string {
	out := []string{}
	for _, k := range c.List() {
		out = append(out, string(k))
	}
	if c.LossSignal > 0 {
		out = append(out, "loss-signal")
	}
	return out
}

// New builds one client's locker over that client's connections to the
// nodes (one per node). Each client calls it once, so per-client state
// (a reentrant owner) is per client.
type New func(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error)

// Pattern is one selectable pattern.
type Pattern struct {
	// Name selects the pattern (locksim run --pattern NAME).
	Name string
	// Summary is one line on what the pattern does.
	Summary string
	// Claims are what the oracles hold the pattern to.
	Claims Claims
	// Nodes is the number of Redis nodes the pattern uses by default.
	Nodes int
	// Broken marks an unsafe variant kept to prove the checks catch it.
	Broken bool
	// Pitfall names the mistake a broken variant makes.
	Pitfall string
	// FIFO marks a pattern whose waiters queue on the server and are
	// granted in the order they queued (the fair lock). A broken variant
	// that imitates such a lock sets it too: failing to keep that order is
	// its pitfall. It is no claim (the oracles do not judge order); the
	// report's FIFO row compares the patterns that set it.
	FIFO bool
	// Shared marks a pattern some of whose leases are shared (read)
	// holdings (see ReadLease): several clients may hold it at once.
	Shared bool
	// Reentrant marks a pattern whose holder may acquire again while it
	// holds, counting its holdings (the reentrant lock, the service). It
	// is no claim: the advisor counts the hold count as a mechanism a
	// situation that never re-enters does not need.
	Reentrant bool
	// Holding says where a lease's holding lives on a node, given the
	// lock key the Locker was built over, for the loss-signal oracle (see
	// Mark); nil: at the lease's Key, which names its Token. A pattern
	// whose holding needs more than that key (a set member backed by its
	// own expiring key) sets it, so that its loss is seen when the first
	// of its marks goes.
	Holding func(key string, l *locks.Lease) []Mark
	// New is the constructor, called once per simulated client.
	New New
}

// Validate reports what makes p unusable: no name, a name with spaces or
// commas (the CLI lists names with commas), no constructor, no nodes, or a
// negative holder limit.
func (p Pattern) Validate() error {
	switch {
	case p.Name == "" || strings.ContainsAny(p.Name, " \t\n,#"):
		return fmt.Errorf("pattern: Name (%q) must be non-empty, without spaces, commas or #", p.Name)
	case p.New == nil:
		return fmt.Errorf("pattern %s: New is nil, want a constructor", p.Name)
	case p.Nodes < 1:
		return fmt.Errorf("pattern %s: Nodes (%d) must be at least 1", p.Name, p.Nodes)
	case p.Claims.MaxHolders < 0:
		return fmt.Errorf("pattern %s: Claims.MaxHolders (%d) must not be negative", p.Name, p.Claims.MaxHolders)
	case p.Claims.Progress < 0:
		return fmt.Errorf("pattern %s: Claims.Progress (%d) must not be negative", p.Name, p.Claims.Progress)
	case p.Claims.LossSignal < 0:
		return fmt.Errorf("pattern %s: Claims.LossSignal (%d) must not be negative", p.Name, p.Claims.LossSignal)
	}
	return nil
}

// Single adapts the constructor of a one-node pattern to New: it refuses
// any other number of nodes. A lock's own constructor (locks.NewBasic)
// serves as it is; its error comes back with a nil Locker.
func Single[L locks.Locker](f func(r locks.Redis, key string, o locks.Options) (L, error)) New {
	return func(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error) {
		if len(nodes) != 1 {
			return nil, fmt.Errorf("pattern needs exactly 1 node, got %d", len(nodes))
		}
		l, err := f(nodes[0], key, o)
		if err != nil {
			return nil, err
		}
		return l, nil
	}
}

// NoRenewal adapts the constructor of a pattern that does not renew: its
// lock is built without Options.RenewEvery, which the locks of such a
// pattern refuse. A scenario's pattern line is one team's settings, run
// under every pattern a gate names (service and fenced under one file),
// so its renewal period is a setting of the patterns that renew and is
// not passed to the others. Every built-in pattern that does not renew
// (basic, reentrant, fenced, redlock, fair, rwlock, semaphore and their
// variants) is registered so.
func NoRenewal(n New) New {
	return func(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error) {
		o.RenewEvery = 0
		return n(nodes, key, o)
	}
}

// fencing makes a constructor's locks issue fencing tokens
// (Options.Fencing), the fenced variant of its pattern.
func fencing[L locks.Locker](f func(r locks.Redis, key string, o locks.Options) (L, error)) func(locks.Redis, string, locks.Options) (L, error) {
	return func(r locks.Redis, key string, o locks.Options) (L, error) {
		o.Fencing = true
		return f(r, key, o)
	}
}

func init() {
	Register(Pattern{Name: "basic", Nodes: 1, Claims: Claims{Mutex: true, Progress: ProgressTTLs, LossSignal: LossSignalTimer},
		Summary: "SET NX PX + owner-checked Lua release; safe while the holder finishes within its validity",
		New:     NoRenewal(Single(locks.NewBasic))})
	Register(Pattern{Name: "reentrant", Nodes: 1, Reentrant: true, Claims: Claims{Mutex: true, Progress: ProgressTTLs, LossSignal: LossSignalTimer},
		Summary: "hash {owner: count}; the owner re-enters; TTL refreshed on re-entry and partial release",
		New:     NoRenewal(Single(locks.NewReentrant))})
	Register(Pattern{Name: "watchdog", Nodes: 1, Claims: Claims{Mutex: true, Progress: ProgressTTLs, LossSignal: LossSignalRenewal},
		Summary: "SET NX PX renewed every TTL/3 while held; the holder learns of loss",
		New:     Single(locks.NewWatchdog)})
	Register(Pattern{Name: "service", Nodes: 1, Reentrant: true, Claims: Claims{Mutex: true, Progress: ProgressTTLs, LossSignal: LossSignalRenewal},
		Summary: "reentrant + watchdog + retry with backoff + context + metrics",
		New:     Single(locks.NewService)})
	Register(Pattern{Name: "fenced", Nodes: 1, Claims: Claims{SafeStore: true, Fencing: true, Progress: ProgressTTLs, LossSignal: LossSignalTimer},
		Summary: "SET NX PX + INCR of a never-expiring fence counter in one script; a checking store rejects stale holders",
		New:     NoRenewal(Single(locks.NewFenced))})
	Register(Pattern{Name: "watchdog-fenced", Nodes: 1, Claims: Claims{Mutex: true, SafeStore: true, Fencing: true, Progress: ProgressTTLs, LossSignal: LossSignalRenewal},
		Summary: "watchdog + a fencing token from a never-expiring counter, issued in the grant's script",
		New:     Single(fencing(locks.NewWatchdog))})
	Register(Pattern{Name: "service-fenced", Nodes: 1, Reentrant: true, Claims: Claims{Mutex: true, SafeStore: true, Fencing: true, Progress: ProgressTTLs, LossSignal: LossSignalRenewal},
		Summary: "service + a fencing token per holding (a re-entry keeps it), issued in the grant's script",
		New:     Single(fencing(locks.NewService))})
	Register(Pattern{Name: "redlock", Nodes: 5, Claims: Claims{Mutex: true, Progress: ProgressTTLs, LossSignal: LossSignalTimer},
		Summary: "quorum of N independent nodes in parallel; validity = TTL - elapsed - drift",
		New: NoRenewal(func(nodes []locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			return locks.NewRedlock(nodes, k, o)
		})})
	Register(Pattern{Name: "redlock-watchdog", Nodes: 5, Claims: Claims{Mutex: true, Progress: ProgressTTLs, LossSignal: LossSignalRenewal},
		Summary: "redlock renewed every TTL/3 on every node while held; a node that lost the key gets it set again",
		New: func(nodes []locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			return locks.NewRedlockWatchdog(nodes, k, o)
		}})
}
