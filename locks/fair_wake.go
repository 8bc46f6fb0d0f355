package locks

import (
	"context"
)

// release is the fair lock's owner-checked release, which also wakes the
// head of the queue (fair_release.lua), counted into the metrics.
func (f *Fair) release(ctx context.Context, l *Lease) error {
	lock, queue, _, prefix := FairKeys(f.name)
	if err := verifyRelease(l, &f.s, lock); err != nil {
		return wrap("release", lock, err)
	}
	n, err := runInt(ctx, f.s.r, fairReleaseScript, []string{lock, queue},
		l.id.token, prefix, WakePrefix(f.name), f.s.c.wakeTTL())
	switch {
	case err != nil:
		return wrap("release", lock, err)
	case n == 0:
		f.m.lost()
		l.h.end(ErrLockLost)
		return wrap("release", lock, ErrNotHeld)
	}
	f.m.released()
	l.spend()
	l.h.end(ErrReleased)
	return nil
}
