package locks

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// notHeldTTL is what the TTL scripts return when the lease does not hold
// the lock (PTTL's reply for a missing key).
const notHeldTTL = -2

// pttl turns a PTTL reply in ms into a duration (-1 stays -1ns).
func pttl(ms int64) time.Duration {
	if ms < 0 {
		return time.Duration(ms)
	}
	return time.Duration(ms) * time.Millisecond
}

// TTL returns the lock's remaining time on the server (see TTLReader).
func (b *Basic) TTL(ctx context.Context, l *Lease) (time.Duration, error) { return b.s.ttl(ctx, l) }

// TTL returns the lock's remaining time on the server (see TTLReader).
func (w *Watchdog) TTL(ctx context.Context, l *Lease) (time.Duration, error) {
	return w.s.ttl(ctx, l)
}

// TTL returns the lock's remaining time on the server (see TTLReader).
func (f *Fenced) TTL(ctx context.Context, l *Lease) (time.Duration, error) { return f.s.ttl(ctx, l) }

// TTL returns the lock's remaining time on the server (see TTLReader).
func (f *Fair) TTL(ctx context.Context, l *Lease) (time.Duration, error) { return f.s.ttl(ctx, l) }

// TTL returns the remaining time on the server of a read or a write
// holding, whichever l is (see TTLReader).
func (rw *RWLock) TTL(ctx context.Context, l *Lease) (time.Duration, error) {
	if IsReadLease(l) {
		return rw.readers.ttl(ctx, l)
	}
	return rw.w.ttl(ctx, l)
}

func (s rwSide) TTL(ctx context.Context, l *Lease) (time.Duration, error) { return s.rw.TTL(ctx, l) }

// TTL returns the permit's remaining time on the server (see TTLReader).
func (s *Semaphore) TTL(ctx context.Context, l *Lease) (time.Duration, error) {
	return s.permits.ttl(ctx, l)
}

// TTL returns the lock's remaining time on the server (see TTLReader).
func (s *Service) TTL(ctx context.Context, l *Lease) (time.Duration, error) { return s.re.TTL(ctx, l) }

// ttl is the owner-checked TTL of a lease s issued.
func (s *single) ttl(ctx context.Context, l *Lease) (time.Duration, error) {
	if err := verify(l, s, s.key); err != nil {
		return 0, wrap("ttl", s.key, err)
	}
	n, err := runInt(ctx, s.r, ttlScript, []string{s.key}, l.id.token)
	if err != nil {
		return 0, wrap("ttl", s.key, err)
	}
	if n == notHeldTTL {
		s.c.Metrics.lost()
		l.h.end(ErrLockLost)
		return 0, wrap("ttl", s.key, ErrNotHeld)
	}
	return pttl(n), nil
}

// TTL returns the lock's remaining time on the server if the lease's own
// entry is still in the hash (see TTLReader).
func (re *Reentrant) TTL(ctx context.Context, l *Lease) (time.Duration, error) {
	if err := verify(l, re, re.key); err != nil {
		return 0, wrap("ttl", re.key, err)
	}
	n, err := runInt(ctx, re.r, reentrantTTLScript, []string{re.key}, re.owner, l.id.entry)
	if err != nil {
		return 0, wrap("ttl", re.key, err)
	}
	if n == notHeldTTL {
		re.c.Metrics.lost()
		re.finish(l.h, ErrLockLost)
		return 0, wrap("ttl", re.key, ErrNotHeld)
	}
	return pttl(n), nil
}

// ttl is the owner-checked TTL of l's membership.
func (ms *members) ttl(ctx context.Context, l *Lease) (time.Duration, error) {
	if err := verify(l, ms, ms.key); err != nil {
		return 0, wrap("ttl", ms.key, err)
	}
	n, err := runInt(ctx, ms.r, memberTTLScript, []string{ms.key}, l.id.token, ms.prefix)
	if err != nil {
		return 0, wrap("ttl", ms.key, err)
	}
	if n == notHeldTTL {
		ms.m.lost()
		l.h.end(ErrLockLost)
		return 0, wrap("ttl", ms.key, ErrNotHeld)
	}
	return pttl(n), nil
}

// TTL returns how long a majority of the nodes still keeps the lock for
// the lease: the Quorum-th longest TTL among the nodes that hold the
// lease's token (the shortest TTL of the longest-lived quorum), read on
// every node in parallel, each bounded by NodeTimeout. When too few nodes
// hold it for a quorum and too few failed to answer for one to be hiding
// there, it returns ErrNotHeld and ends the lease; when the nodes that did
// not answer could make up the quorum, it returns their errors.
func (rl *Redlock) TTL(ctx context.Context, l *Lease) (time.Duration, error) {
	if err := verify(l, rl, rl.key); err != nil {
		return 0, wrap("ttl", rl.key, err)
	}
	ttls := make([]int64, len(rl.nodes))
	errs := rl.fanOut(ctx, nil, func(ctx context.Context, i int, r Redis) error {
		n, err := runInt(ctx, r, ttlScript, rl.keys, l.id.token)
		if err == nil && n == notHeldTTL {
			return ErrNotHeld
		}
		ttls[i] = n
		return err
	})
	qe := rl.tally(errs)
	held := qe.Locked
	switch {
	case held >= rl.quorum:
		return pttl(quorumTTL(ttls, errs, rl.quorum)), nil
	case held+len(qe.Nodes) >= rl.quorum:
		return 0, wrap("ttl", rl.key, fmt.Errorf("%d of %d nodes hold the lease, %d needed: %w", held, len(errs), rl.quorum, errors.Join(nodeErrs(qe)...)))
	default:
		rl.c.Metrics.lost()
		l.h.end(ErrLockLost)
		return 0, wrap("ttl", rl.key, fmt.Errorf("%w: %d of %d nodes hold the lease, %d needed", ErrNotHeld, held, len(errs), rl.quorum))
	}
}

// quorumTTL is the quorum-th longest TTL of the nodes that answered with
// one (errs[i] == nil); a node without expiry (-1) counts as the longest.
func quorumTTL(ttls []int64, errs []error, quorum int) int64 {
	var held []int64
	for i, n := range ttls {
		if errs[i] == nil {
			held = append(held, n)
		}
	}
	slices.SortFunc(held, func(a, b int64) int { return cmpTTL(b, a) })
	return held[quorum-1]
}

// cmpTTL orders PTTLs by how long they keep the key: -1 (no expiry) last.
func cmpTTL(a, b int64) int {
	switch {
	case a == b:
		return 0
	case a == -1:
		return 1
	case b == -1:
		return -1
	case a < b:
		return -1
	}
	return 1
}
