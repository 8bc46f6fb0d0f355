package pattern

import (
	"context"
	"sync"

	"github.com/locksim/locksim/locks"
)

// ReadLease reports whether l is a read (shared) holding: one its Locker
// marked Shared (locks.IsReadLease), as the read-write lock and the seed's
// broken version of it do.
func ReadLease(l *locks.Lease) bool { return locks.IsReadLease(l) }

// Alternating returns a Locker that takes write on a client's odd-numbered
// acquisitions (1st, 3rd, ...) and read on the even-numbered ones, and
// releases each lease through the side that issued it.
func Alternating(write, read locks.Locker) locks.Locker {
	return ReadMostly(write, read, 1)
}

// ReadMostly returns a Locker that takes write on the first of each
// reads+1 acquisitions of a client (1st, reads+2nd, ...) and read on the
// reads others, and releases each lease through the side that issued it:
// reads reads per write (Alternating is reads 1). reads must be at least 1.
func ReadMostly(write, read locks.Locker, reads int) locks.Locker {
	if reads < 1 {
		panic("pattern: ReadMostly needs at least one read per write")
	}
	return &alternating{write: write, read: read, every: reads + 1}
}

type alternating struct {
	write, read locks.Locker
	every       int // a write every this many acquisitions
	mu          sync.Mutex
	n           int
}

func (a *alternating) Acquire(ctx context.Context) (*locks.Lease, error) {
	a.mu.Lock()
	side := a.write
	if a.n%a.every != 0 {
		side = a.read
	}
	a.n++
	a.mu.Unlock()
	return side.Acquire(ctx)
}

func (a *alternating) Release(ctx context.Context, l *locks.Lease) error {
	if ReadLease(l) {
		return a.read.Release(ctx, l)
	}
	return a.write.Release(ctx, l)
}
