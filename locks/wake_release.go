package locks

import "context"

// wakingRelease is the owner-checked release of a single-key holding (the
// fair lock, the writer) by a script that also wakes waiters, counted into
// m. The script runs with KEYS keys and ARGV the lease's token + args and
// returns 1 if it released, 0 if the lease no longer held the lock.
func wakingRelease(ctx context.Context, s *single, m *Metrics, l *Lease, sc wakeRelease) error {
	if err := verifyRelease(l, s, s.key); err != nil {
		return wrap("release", s.key, err)
	}
	n, err := runInt(ctx, s.r, sc.script, sc.keys, append([]any{l.id.token}, sc.args...)...)
	switch {
	case err != nil:
		return wrap("release", s.key, err)
	case n == 0:
		m.lost()
		l.h.end(ErrLockLost)
		return wrap("release", s.key, ErrNotHeld)
	}
	m.released()
	l.spend()
	l.h.end(ErrReleased)
	return nil
}

// release is the fair lock's release: it wakes the head of the queue
// (fair_release.lua).
func (f *Fair) release(ctx context.Context, l *Lease) error {
	lock, queue, _, prefix := FairKeys(f.name)
	return wakingRelease(ctx, &f.s, f.m, l, wakeRelease{fairReleaseScript,
		[]string{lock, queue}, []any{prefix, WakePrefix(f.name), f.s.c.wakeTTL()}})
}

// unlock is the writer's release: it wakes the writer whose intent stands
// or every waiter (rw_unlock.lua).
func (rw *RWLock) unlock(ctx context.Context, l *Lease) error {
	writer, _, intent, _ := RWKeys(rw.name)
	waiters, _, wprefix := waitKeys(rw.name)
	return wakingRelease(ctx, &rw.w, rw.m, l, wakeRelease{rwUnlockScript,
		[]string{writer, intent, waiters}, []any{wprefix, WakePrefix(rw.name), rw.w.c.wakeTTL()}})
}
