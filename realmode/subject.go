package realmode

import (
	"context"
	"fmt"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/redis/go-redis/v9"
)

// Lock is what a client process runs: a locks.Locker, or an adapter of a
// lock library, seen the way the workload uses it.
type Lock interface {
	Acquire(ctx context.Context) (Lease, error)
	Release(ctx context.Context, l Lease) error
}

// Lease is one acquisition as the workload sees it.
type Lease interface {
	Token() string // the owner token (for the history)
	Fence() int64  // the fencing token, 0 where none
	Count() int    // the hold count, 0 where not counted
	Shared() bool  // a read (shared) holding
	// Err is nil while the holder may rely on the lock, on its own view
	// (validity left on its clock, no loss seen by its renewal).
	Err() error
}

// Subject is a lock a client process can build: a catalog pattern, or a
// library adapter that only its own client binary knows.
type Subject struct {
	Name    string
	Summary string
	Nodes   int
	Claims  pattern.Claims
	// New builds one client's lock over its connections (one per node).
	New func(nodes []*redis.Client, key string, o locks.Options) (Lock, error)
}

// PatternSubject is a catalog pattern as a Subject.
func PatternSubject(p pattern.Pattern) Subject {
	return Subject{Name: p.Name, Summary: p.Summary, Nodes: p.Nodes, Claims: p.Claims,
		New: func(nodes []*redis.Client, key string, o locks.Options) (Lock, error) {
			conns := make([]locks.Redis, len(nodes))
			for i, n := range nodes {
				conns[i] = n
			}
			l, err := p.New(conns, key, o)
			if err != nil {
				return nil, err
			}
			return lockerLock{l}, nil
		}}
}

// findSubject looks name up among extra, then in the pattern.
func findSubject(extra []Subject, name string) (Subject, error) {
	for _, s := range extra {
		if s.Name == name {
			return s, nil
		}
	}
	p, err := pattern.Lookup(name)
	if err != nil {
		var names []string
		for _, s := range extra {
			names = append(names, s.Name)
		}
		if len(names) > 0 {
			err = fmt.Errorf("%w; nor a subject of this client (%v)", err, names)
		}
		return Subject{}, err
	}
	return PatternSubject(p), nil
}

// Pattern is the subject as the coordinator needs it (no constructor).
func (s Subject) Pattern() pattern.Pattern {
	return pattern.Pattern{Name: s.Name, Summary: s.Summary, Nodes: s.Nodes, Claims: s.Claims}
}

// lockerLock runs a locks.Locker.
type lockerLock struct{ l locks.Locker }

func (k lockerLock) Acquire(ctx context.Context) (Lease, error) {
	l, err := k.l.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	return lockerLease{l}, nil
}

func (k lockerLock) Release(ctx context.Context, l Lease) error {
	return k.l.Release(ctx, l.(lockerLease).l)
}

type lockerLease struct{ l *locks.Lease }

func (l lockerLease) Token() string { return l.l.Token }
func (l lockerLease) Fence() int64  { return l.l.Fence }
func (l lockerLease) Count() int    { return l.l.Count }
func (l lockerLease) Shared() bool  { return pattern.ReadLease(l.l) }
func (l lockerLease) Err() error    { return l.l.Err() }

// Done closes when the lease is lost on the holder's view.
func (l lockerLease) Done() <-chan struct{} { return l.l.Done() }

// Key is the lease's key.
func (l lockerLease) Key() string { return l.l.Key }
