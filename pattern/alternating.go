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
	return &alternating{write: write, read: read}
}

type alternating struct {
	write, read locks.Locker
	mu          sync.Mutex
	n           int
}

func (a *alternating) Acquire(ctx context.Context) (*locks.Lease, error) {
	a.mu.Lock()
	a.n++
	side := a.write
	if a.n%2 == 0 {
		side = a.read
	}
	a.mu.Unlock()
	return side.Acquire(ctx)
}

func (a *alternating) Release(ctx context.Context, l *locks.Lease) error {
	if ReadLease(l) {
		return a.read.Release(ctx, l)
	}
	return a.write.Release(ctx, l)
}
