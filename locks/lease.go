package locks

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/locksim/locksim/clock"
)

// Lease is the proof of one successful Acquire.
//
// A holder may rely on the lock only while Err() is nil: Err turns non-nil
// when the validity runs out on the holder's own clock, when the lock is
// found lost (by a renewal, Extend, TTL or Release), or after Release. Done
// is closed at the same moments: a timer on the holder's clock closes it
// when the validity runs out, whether or not anyone calls Err.
//
// A lease is honoured only by the Locker that issued it, and only once: a
// lease of another Locker (another key, or another client on the same
// key), one whose holding is over (released, lost, or expired), a second
// Release of the same lease, a lease whose Key or Token was changed, a
// nil lease and one built by hand (&Lease{...}) all get ErrNotHeld with the
// reason, touch nothing in Redis and end no other lease.
type Lease struct {
	// Key is the lock's key (for Fenced, the lock key inside its hash tag).
	Key string
	// Token is the owner token written to Redis; release and renewal check it.
	Token string
	// Fence is the fencing token issued with this acquisition, or 0 where the
	// pattern issues none. Fence tokens strictly increase across holders.
	Fence int64
	// Count is the hold count after this acquisition: 1 for a first
	// acquisition, n for the n-th nested one (reentrant patterns); for a
	// Semaphore, the permits the lease holds (k from AcquireN).
	Count int
	// Shared marks a shared (read) holding, which other shared holdings of
	// the same lock may overlap: an RWLock's read leases. The checks tell
	// shared from exclusive holdings by it.
	Shared bool
	// Metadata is the Options.Metadata stored with the lock (Basic,
	// Watchdog, Fenced): the part of Token after the token proper; "" if
	// none.
	Metadata string

	h  *hold
	id *issue
}

// issue is what the issuing Locker recorded about a lease: who issued it,
// for which key and token, and whether the lease has been spent (released).
// Copies of a Lease share it, so a copy is the same lease.
type issue struct {
	by    any    // the issuing Locker's identity (a pointer)
	key   string // the key the Locker holds
	token string // the token written to Redis
	entry string // reentrant patterns: this acquisition's own entry
	spent bool   // guarded by h.mu: this lease was released
}

// issued returns a lease for one holding h, issued by by for key and token.
func issued(by any, key, token string, fence int64, count int, h *hold) *Lease {
	meta, _ := splitValue(token)
	return &Lease{Key: key, Token: token, Fence: fence, Count: count, Metadata: meta, h: h,
		id: &issue{by: by, key: key, token: token}}
}

// verify returns nil if l was issued by by for key and may still be
// extended; otherwise ErrNotHeld with the reason. It reads nothing from
// Redis.
func verify(l *Lease, by any, key string) error { return verifyFor(l, by, key, false) }

// verifyRelease is verify for a release: a lease whose validity merely ran
// out on the holder's clock, or whose Release reached only some nodes,
// passes, since a key may still hold its own token, which only it can
// remove; one that was released, or whose loss was detected, does not.
func verifyRelease(l *Lease, by any, key string) error { return verifyFor(l, by, key, true) }

func verifyFor(l *Lease, by any, key string, release bool) error {
	switch {
	case l == nil:
		return fmt.Errorf("%w: nil lease", ErrNotHeld)
	case l.h == nil || l.id == nil || l.id.by == nil:
		return fmt.Errorf("%w: lease was not issued by a Locker of this package", ErrNotHeld)
	case l.id.key != key:
		return fmt.Errorf("%w: lease is for %q, not this Locker's key", ErrNotHeld, l.id.key)
	case l.id.by != by:
		return fmt.Errorf("%w: lease was issued by another Locker on this key", ErrNotHeld)
	case l.Key != l.id.key || l.Token != l.id.token:
		return fmt.Errorf("%w: lease's Key or Token was changed after it was issued", ErrNotHeld)
	}
	err := l.h.check()
	l.h.mu.Lock()
	spent, left := l.id.spent, l.h.left
	l.h.mu.Unlock()
	switch {
	case spent:
		return fmt.Errorf("%w: lease was already released", ErrNotHeld)
	case err != nil && !(left && release):
		return fmt.Errorf("%w: the holding is over: %w", ErrNotHeld, err)
	}
	return nil
}

// spend marks l released; it reports false if it already was.
func (l *Lease) spend() bool {
	l.h.mu.Lock()
	defer l.h.mu.Unlock()
	if l.id.spent {
		return false
	}
	l.id.spent = true
	l.h.open--
	return true
}

// reenter counts one more open lease on h, the first one counted too if
// it was not yet, and returns how many are open; 0 if h is over.
func (h *hold) reenter() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.err != nil {
		return 0
	}
	if h.open <= 0 {
		h.open = 1
	}
	h.open++
	return h.open
}

// spendPartly spends l if other leases of its holding are still open (a
// re-entered holding's release that is not its last) and reports whether
// it did; the last open lease is left to the release proper.
func (l *Lease) spendPartly() bool {
	l.h.mu.Lock()
	defer l.h.mu.Unlock()
	if l.h.open <= 1 || l.id.spent {
		return false
	}
	l.id.spent = true
	l.h.open--
	return true
}

// openLeases is the number of leases of a reentrant holding not yet
// released.
func (h *hold) openLeases() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.open
}

// hold is the state shared by the leases of one continuous holding (several
// leases share it when a reentrant owner re-enters).
type hold struct {
	clk   clock.Clock
	mu    sync.Mutex
	start time.Time     // when the request that granted the current validity was sent
	valid time.Duration // validity measured from start
	err   error         // nil while held
	left  bool          // ended, but the server may still hold its token (validity ran out, partial release)
	open  int           // reentrant: leases issued on this holding and not yet released
	going bool          // the holder is releasing it: renewals stop (see letGo)
	// renewing counts the renewal attempts in flight; quiet wakes the
	// releases waiting for them to end (see letGoQuiet).
	renewing int
	quiet    []context.CancelFunc
	done     chan struct{}
	stops    []func()    // stop the validity timer and the watchdog, if any
	timer    func() bool // stops the validity timer armed on a clock.AfterFuncer
}

// newHold starts a holding whose validity, measured on clk from start, is
// valid, and its timer: Done closes when the validity runs out unless the
// holding is renewed or ended first. On a Clock with AfterFunc the timer
// is the clock's own, so a holding released before its validity ends (the
// common case) costs no goroutine; on any other Clock a goroutine sleeps
// on it.
func newHold(clk clock.Clock, start time.Time, valid time.Duration) *hold {
	h := &hold{clk: clk, start: start, valid: valid, done: make(chan struct{})}
	if af, ok := clk.(clock.AfterFuncer); ok {
		h.mu.Lock()
		h.timer = af.AfterFunc(h.valid-clk.Since(h.start), func() { h.timeUp(af) })
		h.mu.Unlock()
		return h
	}
	ctx, cancel := clk.WithCancel(context.Background())
	h.stops = append(h.stops, cancel)
	clk.Go(func() { h.expire(ctx) })
	return h
}

// timeUp is the AfterFunc timer's end: the holding runs out if its
// validity has, and the timer is armed again for what a renewal left.
func (h *hold) timeUp(af clock.AfterFuncer) {
	h.mu.Lock()
	if h.err != nil {
		h.mu.Unlock()
		return
	}
	if left := h.valid - h.clk.Since(h.start); left > 0 {
		h.timer = af.AfterFunc(left, func() { h.timeUp(af) })
		h.mu.Unlock()
		return
	}
	h.mu.Unlock()
	h.runOut()
}

// expire sleeps until the validity runs out (following renewals) and then
// ends the holding, unless ctx is cancelled first.
func (h *hold) expire(ctx context.Context) {
	for {
		left := h.remaining()
		if left <= 0 {
			h.runOut()
			return
		}
		if h.clk.Sleep(ctx, left) != nil {
			return
		}
	}
}

// onEnd registers stop to run when the holding ends (at once if it has).
func (h *hold) onEnd(stop func()) {
	h.mu.Lock()
	if h.err == nil {
		h.stops = append(h.stops, stop)
		h.mu.Unlock()
		return
	}
	h.mu.Unlock()
	stop()
}

// extend records a successful renewal sent at start.
func (h *hold) extend(start time.Time, valid time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.err == nil {
		h.start, h.valid = start, valid
	}
}

// runOut ends the holding because its validity ran out on the holder's
// clock (the key may still hold the lease's token on the server).
func (h *hold) runOut() {
	h.mu.Lock()
	if h.err == nil {
		h.left = true
	}
	h.mu.Unlock()
	h.end(errRanOut)
}

// endPartly ends the holding on a release that some nodes did not answer:
// a later Release of the same lease may still remove the token there.
func (h *hold) endPartly(err error) {
	h.mu.Lock()
	if h.err == nil {
		h.left = true
	}
	h.mu.Unlock()
	h.end(err)
}

// releaseFailed is the reason a holding ends when its Release failed (the
// request or its reply was lost, the node was down): the holder has let
// go, so its renewals stop and Done closes, but the key may still hold the
// lease's token until it expires, and a later Release of the same lease
// may still remove it (see endPartly). Renewing on would hold the lock for
// as long as the process runs, for a holder that let go of it.
func releaseFailed(err error) error {
	return fmt.Errorf("%w: its release failed: %w", ErrLockLost, err)
}

// letGo marks the holding as being released: no renewal is sent for it
// from now on, whatever the release's outcome. A release can wait long for
// a reply that was lost; renewing meanwhile would keep the key alive for
// a holder that has let go of it.
func (h *hold) letGo() {
	h.mu.Lock()
	h.going = true
	h.mu.Unlock()
}

// letGoQuiet is letGo, then a wait of at most bound, on clk, for the
// renewal attempts already in flight to end, so that none of their
// requests lands after the release that follows. It is for locks whose
// renewal can set a missing key again (Redlock's extension), where such a
// request would leave the lease's token on a node the release has freed.
func (h *hold) letGoQuiet(ctx context.Context, clk clock.Clock, bound time.Duration) {
	h.mu.Lock()
	h.going = true
	if h.renewing == 0 {
		h.mu.Unlock()
		return
	}
	wait, wake := clk.WithCancel(ctx)
	h.quiet = append(h.quiet, wake)
	h.mu.Unlock()
	_ = clk.Sleep(wait, bound) // woken by endRenew, or the bound, or ctx
	wake()
}

// beginRenew marks a renewal attempt in flight; it reports false, sending
// nothing, once the holding is being released.
func (h *hold) beginRenew() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.going {
		return false
	}
	h.renewing++
	return true
}

// endRenew marks a renewal attempt ended, waking the releases that wait
// for the last one (see letGoQuiet).
func (h *hold) endRenew() {
	h.mu.Lock()
	h.renewing--
	var wake []context.CancelFunc
	if h.renewing == 0 {
		wake, h.quiet = h.quiet, nil
	}
	h.mu.Unlock()
	for _, w := range wake {
		w()
	}
}

// renewable reports whether renewals may still be sent for the holding.
func (h *hold) renewable() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return !h.going
}

// errRanOut is the reason a holding whose validity ran out ended.
var errRanOut = fmt.Errorf("%w: validity ran out", ErrLockLost)

// end marks the holding over with err; it is idempotent (the first reason wins).
func (h *hold) end(err error) {
	h.mu.Lock()
	if h.err != nil {
		h.mu.Unlock()
		return
	}
	h.err = err
	stops, timer := h.stops, h.timer
	h.stops, h.timer = nil, nil
	h.mu.Unlock()
	close(h.done)
	if timer != nil {
		timer()
	}
	for _, stop := range stops {
		stop()
	}
}

func (h *hold) remaining() time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.valid - h.clk.Since(h.start)
}

// errNotIssued is what a lease that no Locker issued reports.
var errNotIssued = fmt.Errorf("%w: lease was not issued by a Locker", ErrNotHeld)

// Err is nil while the holder may rely on the lock; ErrLockLost when the
// validity has run out or a loss was detected; ErrReleased after Release;
// ErrNotHeld for a nil or hand-built lease.
func (l *Lease) Err() error {
	if l == nil || l.h == nil {
		return errNotIssued
	}
	return l.h.check()
}

// check ends the holding, sticky, once its validity has run out on the
// holder's clock, and returns the reason it ended (nil while valid).
func (h *hold) check() error {
	h.mu.Lock()
	err := h.err
	h.mu.Unlock()
	if err != nil {
		return err
	}
	if h.remaining() <= 0 {
		h.runOut()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}

// Validity is how much longer, on the holder's clock, the lock may be
// relied on (zero or negative once it cannot).
func (l *Lease) Validity() time.Duration {
	if l.Err() != nil {
		return 0
	}
	return l.h.remaining()
}

// closed is the Done of a lease that holds nothing.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Done is closed when the holding ends: when the validity runs out on the
// holder's clock (a timer on that clock closes it then, whether or not
// anyone calls Err; renewals and extensions move the timer on), when the
// lock is found lost (a renewal, Extend, TTL or Release told by the server
// that the lease no longer holds it, or a holding taken back by a later
// Acquire with the same Token), or on Release. It is closed already for a
// nil or hand-built lease.
func (l *Lease) Done() <-chan struct{} {
	if l == nil || l.h == nil {
		return closed
	}
	return l.h.done
}

func (h *hold) ended() bool { return h.check() != nil }

// freed ends l's holding after its owner-checked release, counted into m.
func freed(m *Metrics, l *Lease) {
	m.released()
	l.spend()
	l.h.end(ErrReleased)
}

// lostBy ends l's holding when the server says it no longer held the lock
// (an owner-checked release or extension found another token, or none),
// counted into m, and returns why as the error of op on key. The server's
// answer leaves nothing of the lease to remove there, so a later Release of
// it is refused before anything is sent (and counts no second loss), even
// if its validity had merely run out; a release's answer spends the lease.
func lostBy(m *Metrics, l *Lease, op, key string, why error) error {
	m.lost()
	l.h.mu.Lock()
	l.h.left = false
	l.h.mu.Unlock()
	if op == "release" {
		l.spend()
	}
	l.h.end(ErrLockLost)
	return wrap(op, key, why)
}
