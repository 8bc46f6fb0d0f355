package pattern

import "github.com/locksim/locksim/locks"

// The advanced patterns of the seed articles, done right: the fair lock
// (also fenced), the read-write lock and the semaphore.
//
// The read-write lock appears twice. "rwlock-write" runs every client as a
// writer, so the plain mutual-exclusion checks apply to its write side.
// "rwlock" mixes the two sides: each client takes the write lock on its
// 1st, 3rd, 5th... acquisition and the read lock on its 2nd, 4th, ...
// (deterministic per client, no randomness drawn). It claims Mutex in the
// sense a read-write lock gives it: no holder at all beside a writer. The
// simulator's oracle tells a read lease from a write lease with ReadLease
// and lets read leases overlap each other; every other pair of
// overlapping sections is an overlap, as for any Mutex pattern.

// SemaphorePermits is the N the registry's "semaphore" is built with.
const SemaphorePermits = 2

// ReadsPerWrite is rwlock-read-mostly's load: each client reads this many
// times per write.
const ReadsPerWrite = 9

func init() {
	Register(Pattern{Name: "fair", Nodes: 1, Claims: Claims{Mutex: true, Progress: ProgressTTLs, LossSignal: LossSignalTimer}, FIFO: true,
		Summary: "FIFO queue by server-issued ticket; enqueue atomic with the waiter's expiry; vanished waiters pruned",
		New:     NoRenewal(Single(locks.NewFair))})
	Register(Pattern{Name: "fair-fenced", Nodes: 1, Claims: Claims{Mutex: true, SafeStore: true, Fencing: true, Progress: ProgressTTLs, LossSignal: LossSignalTimer}, FIFO: true,
		Summary: "fair + a fencing token per grant from a never-expiring counter, incremented in the grant's script",
		New:     NoRenewal(Single(fencing(locks.NewFair)))})
	Register(Pattern{Name: "rwlock", Nodes: 1, Claims: Claims{Mutex: true, Progress: ProgressTTLs, LossSignal: LossSignalTimer}, Shared: true, Holding: rwHolding,
		Summary: "read-write lock, clients alternating write/read; owned, expiring readers; a waiting writer holds off new readers",
		New: NoRenewal(Single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			rw, err := locks.NewRWLock(r, k, o)
			if err != nil {
				return nil, err
			}
			return Alternating(rw.Writer(), rw.Reader()), nil
		}))})
	Register(Pattern{Name: "rwlock-read-mostly", Nodes: 1, Claims: Claims{Mutex: true, Progress: ProgressTTLs, LossSignal: LossSignalTimer}, Shared: true, Holding: rwHolding,
		Summary: "the read-write lock under a read-mostly load: each client writes once in ten acquisitions and reads the other nine",
		New: NoRenewal(Single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			rw, err := locks.NewRWLock(r, k, o)
			if err != nil {
				return nil, err
			}
			return ReadMostly(rw.Writer(), rw.Reader(), ReadsPerWrite), nil
		}))})
	Register(Pattern{Name: "rwlock-write", Nodes: 1, Claims: Claims{Mutex: true, Progress: ProgressTTLs, LossSignal: LossSignalTimer},
		Summary: "the read-write lock's write side only: writers exclude each other",
		New: NoRenewal(Single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			rw, err := locks.NewRWLock(r, k, o)
			if err != nil {
				return nil, err
			}
			return rw.Writer(), nil
		}))})
	Register(Pattern{Name: "semaphore", Nodes: 1, Claims: Claims{MaxHolders: SemaphorePermits, Progress: ProgressTTLs, LossSignal: LossSignalTimer}, Holding: semaphoreHolding,
		Summary: "at most N=2 holders; each permit owned and expiring on its own; owner-checked release",
		New: NoRenewal(Single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			return locks.NewSemaphore(r, k, SemaphorePermits, o)
		}))})
}
