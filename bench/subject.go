package bench

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// Kind says what part a subject plays in a comparison.
type Kind string

// The kinds of subject.
const (
	KindPattern   Kind = "pattern"   // a locksim pattern from the pattern registry
	KindFloor     Kind = "floor"     // hand-written SET NX PX + Lua release: the least a lock costs
	KindReference Kind = "reference" // hand-written parallel Redlock fan-out
	KindLibrary   Kind = "library"   // a Go lock library people use today
)

// Family groups the subjects that are measured side by side, interleaved,
// on the same cells.
type Family string

// The families.
const (
	// Single: one Redis node; the reference is the floor.
	Single Family = "single"
	// Quorum: N nodes (Redlock); the reference is the hand-written fan-out.
	Quorum Family = "quorum"
)

// ErrBusy marks an acquisition attempt that found the lock taken.
// Adapters wrap their library's "not obtained" error with it.
var ErrBusy = errors.New("bench: lock taken")

// Locker is one benchmark client's handle on one lock.
type Locker interface {
	// Acquire takes the lock; an error matching ErrBusy means it was taken
	// (after whatever retries the subject makes by itself).
	Acquire(ctx context.Context) (Held, error)
}

// Held is a lock Acquire took.
type Held interface {
	Release(ctx context.Context) error
}

// Conn is what a subject builds a client's Locker from.
type Conn struct {
	// Nodes are the cell's Redis clients, shared by all its bench clients
	// (one node for the Single family).
	Nodes []*redis.Client
	// TTL is the lock's time to live.
	TTL time.Duration
	// Retries counts the failed attempts a subject retried by itself
	// (inside one Acquire call); subjects that retry must add to it.
	Retries *Counter
}

// Subject is something whose lock cycles are measured.
type Subject struct {
	Name    string
	Kind    Kind
	Family  Family
	Summary string
	// Holders is the most clients that may hold the lock at one instant
	// when nothing fails: 1 for a lock, N for a semaphore, 0 where clients
	// legitimately share it (readers) and the check does not apply.
	Holders int
	// New builds one client's Locker on key.
	New func(c Conn, key string) (Locker, error)
}

// Busy wraps a subject's "lock taken" error so that it matches ErrBusy.
func Busy(err error) error { return fmt.Errorf("%w: %w", ErrBusy, err) }

// PatternSubjects returns a subject for every correct pattern in the
// catalog: single-node patterns in the Single family, multi-node ones
// (Redlock) in the Quorum family. Each pattern runs with its defaults (one
// attempt per Acquire, except Service, which blocks with backoff); quorum
// patterns retry with the package's default jittered backoff until the
// context ends, since tight retries livelock a quorum, and so does the fair
// lock, whose queue order means nothing to a waiter that leaves it after
// every attempt.
func PatternSubjects() []Subject {
	var out []Subject
	for _, p := range pattern.All() {
		if p.Broken {
			continue
		}
		out = append(out, patternSubject(p))
	}
	return out
}

// waits names the patterns that wait in Acquire (retry until the context
// ends) rather than try once.
var waits = map[string]bool{"fair": true, "fair-fenced": true}

func patternSubject(p pattern.Pattern) Subject {
	fam := Single
	if p.Nodes > 1 {
		fam = Quorum
	}
	return Subject{
		Name: p.Name, Kind: KindPattern, Family: fam, Summary: p.Summary, Holders: holders(p),
		New: func(c Conn, key string) (Locker, error) {
			// Metrics on, as a service in production would have them.
			o := locks.Options{TTL: c.TTL, Rand: countingRand{locks.CryptoRand{}, c.Retries}, Metrics: new(locks.Metrics)}
			if fam == Quorum || waits[p.Name] {
				o.Retry = locks.Retry{Attempts: -1}
			}
			nodes := make([]locks.Redis, len(c.Nodes))
			for i, n := range c.Nodes {
				nodes[i] = n
			}
			l, err := p.New(nodes, key, o)
			if err != nil {
				return nil, fmt.Errorf("pattern %s: %w", p.Name, err)
			}
			return lockerAdapter{l}, nil
		},
	}
}

// holders reads a pattern's claims: a mutex, or a fenced lock (a SET NX
// lock whose safety claim is the fence), admits one holder; a semaphore N.
// A pattern with shared (read) holdings has no bound on holders: its
// writers' exclusion is what the rwlock-write subject measures.
func holders(p pattern.Pattern) int {
	c := p.Claims
	switch {
	case p.Shared:
		return 0
	case c.Mutex || c.Fencing:
		return 1
	default:
		return c.MaxHolders
	}
}

// countingRand counts the retries a pattern makes inside one Acquire: the
// patterns draw a retry's jitter from Options.Rand exactly once, before
// each retry, so every Int64N is one failed attempt that was retried.
type countingRand struct {
	locks.Rand
	n *Counter
}

func (r countingRand) Int64N(n int64) int64 {
	r.n.Inc()
	return r.Rand.Int64N(n)
}

// lockerAdapter turns a locks.Locker into a bench Locker.
type lockerAdapter struct{ l locks.Locker }

type leaseHeld struct {
	l     locks.Locker
	lease *locks.Lease
}

func (a lockerAdapter) Acquire(ctx context.Context) (Held, error) {
	lease, err := a.l.Acquire(ctx)
	switch {
	case err == nil:
		return leaseHeld{a.l, lease}, nil
	case ctx.Err() == nil && (errors.Is(err, locks.ErrNotAcquired) || errors.Is(err, locks.ErrQuorum)):
		return nil, Busy(err)
	default:
		return nil, err
	}
}

func (h leaseHeld) Release(ctx context.Context) error { return h.l.Release(ctx, h.lease) }

// Subjects returns the built-in subjects: the floor, the hand-written
// fan-out and every correct pattern, followed by extra (library adapters
// from a module that links them).
func Subjects(extra ...Subject) []Subject {
	out := []Subject{FloorSubject(), FanOutSubject()}
	out = append(out, PatternSubjects()...)
	return append(out, extra...)
}
