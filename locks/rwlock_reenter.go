package locks

import (
	"context"
	"fmt"
)

// Re-entry, a writer's read lock and downgrade, as Redisson's
// RReadWriteLock offers them, with the holder named by its lease instead of
// a thread.

// Reenter takes the holding l is a lease of once more and returns a new
// lease of it: a read lease for a read holding, a write lease for a write
// one. It does not wait: it is one owner-checked TTL refresh (the reader's
// own key, or the writer key), granted while l still holds, so a reader
// re-enters even while a writer's intent holds new readers off (waiting
// for it would deadlock the reader against the writer waiting for it to
// drain). The leases of one holding share its validity, renewal and Done;
// releasing one that is not the holding's last open lease sends nothing
// and only spends it, and the last one's release frees the holding. A
// lease that no longer holds gets ErrNotHeld (the holding ends, counted as
// lost in Metrics); a lease of another Locker, a released or a nil one
// gets ErrNotHeld and touches nothing.
func (rw *RWLock) Reenter(ctx context.Context, l *Lease) (*Lease, error) {
	by, key := rw.side(l)
	if err := verify(l, by, key); err != nil {
		return nil, wrap("reenter", key, err)
	}
	rw.m.attempted()
	ok, err := rw.renew(ctx, l)
	if err != nil {
		rw.m.failed()
		return nil, wrap("reenter", key, err)
	}
	if !ok {
		rw.m.failed()
		return nil, lostBy(rw.m, l, "reenter", key, ErrNotHeld)
	}
	n := l.h.reenter()
	if n == 0 {
		rw.m.failed()
		return nil, wrap("reenter", key, fmt.Errorf("%w: the holding ended meanwhile", ErrNotHeld))
	}
	rw.m.acquired()
	again := issued(by, key, l.id.token, 0, n, l.h)
	again.Shared = l.Shared
	return again, nil
}

// RLockAsWriter is a writer's read lock: a read holding granted, without
// waiting, while w holds the write lock (a writer may take the read lock
// its write holding implies). The read holding is a reader like any other:
// it outlasts the write holding's Unlock, which is how a writer downgrades
// (see Downgrade for the same in one step). Upgrading a read holding to a
// write one is not offered: two readers doing so would wait for each
// other. If w no longer holds the write lock, nothing is written and the
// error is ErrNotHeld (w's holding ends, counted as lost).
func (rw *RWLock) RLockAsWriter(ctx context.Context, w *Lease) (*Lease, error) {
	return rw.readUnder(ctx, w, false)
}

// Downgrade turns w's write holding into a read holding with no moment in
// which it holds neither: one script adds the reader and deletes the
// writer key, granted only while the writer key holds w's token. w is
// spent (ErrReleased) and the read lease returned; waiting readers may
// join at once, a waiting writer waits for the new reader. If other leases
// of w's holding are still open (Reenter), the write holding stays for
// them and only w is spent, as an Unlock of w would: the result is then
// RLockAsWriter's. Errors are RLockAsWriter's.
func (rw *RWLock) Downgrade(ctx context.Context, w *Lease) (*Lease, error) {
	return rw.readUnder(ctx, w, true)
}

// readUnder grants a read holding under w's write holding, ending that
// holding in the same step when downgrade is set and w is its last lease.
func (rw *RWLock) readUnder(ctx context.Context, w *Lease, downgrade bool) (*Lease, error) {
	writer, readers := rw.w.key, rw.readers.key
	if err := verify(w, &rw.w, writer); err != nil {
		return nil, wrap("acquire", readers, err)
	}
	if IsReadLease(w) {
		return nil, wrap("acquire", readers, fmt.Errorf("%w: a read lease holds no write lock", ErrNotHeld))
	}
	end := downgrade && w.h.openLeases() <= 1
	flag := "0"
	if end {
		flag = "1"
	}
	rw.m.attempted()
	token, start := rw.w.c.Rand.Token(), rw.w.c.Clock.Now()
	n, err := runInt(ctx, rw.w.r, rwWriterReadScript, []string{writer, readers},
		w.id.token, token, rw.w.c.ttlMS, rw.readers.prefix, flag)
	if err != nil {
		rw.m.failed()
		return nil, wrap("acquire", readers, err)
	}
	if n == 0 {
		rw.m.failed()
		return nil, lostBy(rw.m, w, "acquire", writer, ErrNotHeld)
	}
	switch {
	case end:
		freed(rw.m, w)
	case downgrade:
		w.spendPartly()
		rw.m.released()
	}
	l, err := rw.readers.granted(ctx, token, start)
	if err != nil {
		rw.m.failed()
		return nil, err
	}
	rw.m.acquired()
	l.Shared = true
	rw.watch(l)
	return l, nil
}

// side is the issuer and key of l's kind of holding.
func (rw *RWLock) side(l *Lease) (any, string) {
	if IsReadLease(l) {
		return &rw.readers, rw.readers.key
	}
	return &rw.w, rw.w.key
}

// renew is the owner-checked TTL refresh of l's holding, read or write; it
// reports (false, nil) when l no longer holds.
func (rw *RWLock) renew(ctx context.Context, l *Lease) (bool, error) {
	if IsReadLease(l) {
		return rw.readers.renew(ctx, l)
	}
	return rw.w.extend(ctx, l)
}

// partly spends l, a lease of a re-entered holding of the kind read says
// that is not its last open one, and counts it released; it reports false
// for any other lease.
func (rw *RWLock) partly(l *Lease, read bool) bool {
	if l == nil || IsReadLease(l) != read {
		return false
	}
	by, key := rw.side(l)
	if verifyRelease(l, by, key) != nil || !l.spendPartly() {
		return false
	}
	rw.m.released()
	return true
}
