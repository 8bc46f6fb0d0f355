package locks

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Reentrant is a lock that its owner may take again while holding it. The
// key is a hash {owner: count} that also records each acquisition's own
// entry ('@'-prefixed fields); each Acquire by the same owner adds an entry
// and increments the count, each Release removes its lease's entry and
// decrements it, and the TTL is refreshed on every re-entry and every
// partial release. The lock is free when the count reaches zero.
//
// Entries make every request affect only the acquisition it belongs to: a
// second Release of a lease, a Release of a lease from an earlier holding,
// or a release that reaches Redis after Release gave up finds no entry and
// changes nothing; an Acquire that gives up while its request is in flight
// removes the entry the request may have left.
//
// With Options.Fencing the key is a name: the hash is FencedLockKey(name),
// and each new holding also issues a fencing token from the counter
// FencedCounterKey(name) in the acquire script (a re-entry keeps it).
//
// Go has no thread identity: the owner is the Reentrant value (its Owner
// option, or a fresh token). Share one value between the code paths that
// must re-enter; give each independent client its own.
type Reentrant struct {
	r     Redis
	key   string
	c     config
	owner string
	inst  string // this value's entry prefix: unique among every value of owner
	fence string // the fence counter's key, with Options.Fencing; else ""
	// sessions pins a connection for WaitReplicas (nil without it).
	sessions func(ctx context.Context, key string) (Session, func(), error)

	mu       sync.Mutex // guards cur, seq, inflight and orphans; never held across a Redis call
	cur      *hold
	seq      uint64
	inflight int      // acquisition attempts between their entry and their outcome
	orphans  []string // entries of grants that may have landed and whose undo failed
}

var (
	_ Locker      = (*Reentrant)(nil)
	_ TTLExtender = (*Reentrant)(nil)
)

// NewReentrant returns a reentrant lock on key owned by o.Owner (or a fresh
// owner token). An Owner must not begin with '@' (the prefix of the
// holding's entries in the hash).
func NewReentrant(r Redis, key string, o Options) (*Reentrant, error) {
	if strings.HasPrefix(o.Owner, "@") {
		return nil, &OptionError{"Owner", strconv.Quote(o.Owner), "must not begin with '@' (reserved for the holding's entries)"}
	}
	if err := o.noToken("Reentrant or Service"); err != nil {
		return nil, err
	}
	if o.Fencing && key == "" {
		return nil, &OptionError{"name", `""`, "must not be empty"}
	}
	lockKey, fence := key, ""
	if o.Fencing {
		lockKey, fence = FencedLockKey(key), FencedCounterKey(key)
	}
	s, err := newSingle(r, lockKey, o)
	if err != nil {
		return nil, err
	}
	owner, inst := s.c.Owner, s.c.Owner
	if owner == "" {
		owner = s.c.Rand.Token()
		inst = owner
	} else {
		inst = s.c.Rand.Token() // another process may run the same owner
	}
	return &Reentrant{r: r, key: lockKey, c: s.c, owner: owner, inst: inst, fence: fence, sessions: s.sessions}, nil
}

// Owner is the owner id written into the hash.
func (re *Reentrant) Owner() string { return re.owner }

// Acquire takes the lock, or re-enters it if this owner holds it.
func (re *Reentrant) Acquire(ctx context.Context) (*Lease, error) {
	return re.c.counted(ctx, func() (*Lease, error) {
		l, _, err := re.try(ctx)
		return l, err
	})
}

// begin starts one acquisition attempt: it returns a fresh entry id and,
// when this value holds nothing (see holdsNothing: a holding released,
// lost, or let go by a Release that failed or is still waiting) and no
// other attempt is in flight, the prefix of this value's entries for the grant to remove
// (else ""): any of them still in Redis is left from a holding this value
// let go of, and re-entering it would hand out that holding's fencing
// token again and keep its count above zero. settle ends the attempt.
func (re *Reentrant) begin() (entry, stale string) {
	re.mu.Lock()
	defer re.mu.Unlock()
	re.seq++
	if re.inflight == 0 && re.holdsNothing() {
		stale = re.inst + "."
	}
	re.inflight++
	return re.inst + "." + strconv.FormatUint(re.seq, 10), stale
}

// holdsNothing reports whether this value has no holding, or one that is
// over or whose last lease is being released; re.mu is held.
func (re *Reentrant) holdsNothing() bool {
	return re.cur == nil || re.cur.ended() || !re.cur.renewable()
}

// settle ends an attempt begun by begin.
func (re *Reentrant) settle() {
	re.mu.Lock()
	re.inflight--
	re.mu.Unlock()
}

// try makes one attempt; fresh reports whether a new holding began (as
// opposed to a re-entry).
func (re *Reentrant) try(ctx context.Context) (l *Lease, fresh bool, err error) {
	ctx, done, err := re.pin(ctx)
	if err != nil {
		return nil, false, wrap("acquire", re.key, err)
	}
	defer done()
	entry, stale := re.begin()
	defer re.settle()
	start := re.c.Clock.Now()
	n, fence, err := re.grant(ctx, entry, stale)
	if err != nil {
		// The outcome is unknown: the grant may have landed. Remove its
		// entry, if any, so that it holds nothing.
		re.undo(ctx, entry)
		return nil, false, wrap("acquire", re.key, err)
	}
	if n <= 0 { // minus the time the other owner's holding has left
		return nil, false, wrap("acquire", re.key, takenFor(n, ErrNotAcquired))
	}
	if err := re.c.inTime(ctx, start, re.undoer(entry)); err != nil {
		return nil, false, wrap("acquire", re.key, err)
	}
	if err := re.confirmed(ctx, func() time.Duration { return re.c.validity(re.c.Clock.Since(start)) }); err != nil {
		re.undo(ctx, entry) // too few replicas have it: give this acquisition back
		return nil, false, wrap("acquire", re.key, err)
	}
	h, fresh := re.entered(n, start)
	l = issued(re, re.key, re.owner, fence, int(n), h)
	l.id.entry = entry
	h.mu.Lock()
	h.open++
	h.mu.Unlock()
	return l, fresh, nil
}

// grant runs the acquire script for entry, removing first this value's
// entries that begin with stale (if not ""): it returns the owner's count
// (if another owner holds the lock, minus the PTTL of its holding, or 0)
// and, with Fencing, the holding's fencing token.
func (re *Reentrant) grant(ctx context.Context, entry, stale string) (n, fence int64, err error) {
	if re.fence == "" {
		n, err = runInt(ctx, re.conn(ctx), reentrantAcquireScript, []string{re.key}, re.owner, re.c.ttlMS, entry, stale)
		return n, 0, err
	}
	v, err := reentrantFencedAcquireScript.Run(ctx, re.conn(ctx), []string{re.key, re.fence}, re.owner, re.c.ttlMS, entry, stale).Int64Slice()
	if err != nil {
		return 0, 0, err
	}
	if len(v) != 2 {
		return 0, 0, fmt.Errorf("%w: fenced acquire replied %v, want [count fence]", ErrPermanent, v)
	}
	return v[0], v[1], nil
}

// undo removes entry from the hash if a grant left it there, holding the
// caller only while ctx lasts and CleanupGrace past its end (see owe): a
// server that does not answer must not hold it past its deadline. If the
// undo fails too, the entry is kept as an orphan, removed when this
// owner's last lease of the holding is released (or by the stale-entry
// sweep of this value's next fresh grant).
func (re *Reentrant) undo(ctx context.Context, entry string) {
	re.c.owe(ctx, re.undoer(entry), func() {
		re.mu.Lock()
		re.orphans = append(re.orphans, entry)
		re.mu.Unlock()
	})
}

// undoer is the undo of entry, as a clean-up: drop it from the hash.
func (re *Reentrant) undoer(entry string) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := re.drop(ctx, entry)
		return err
	}
}

// drop runs the release script for entry, bounded by the TTL (the lock
// expires on its own by then), whatever ctx says.
func (re *Reentrant) drop(ctx context.Context, entry string) (int64, error) {
	uctx, cancel := re.c.Clock.WithTimeout(context.WithoutCancel(ctx), re.c.TTL)
	defer cancel()
	return runInt(uctx, re.r, reentrantReleaseScript, []string{re.key}, re.owner, re.c.ttlMS, entry)
}

// dropOrphans removes the orphaned entries once the holder has released
// every lease of its holding but the server still counts some; it returns
// the count left after them.
func (re *Reentrant) dropOrphans(ctx context.Context, n int64) int64 {
	re.mu.Lock()
	orphans := re.orphans
	re.orphans = nil
	re.mu.Unlock()
	for _, e := range orphans {
		if m, err := re.drop(ctx, e); err != nil {
			re.mu.Lock()
			re.orphans = append(re.orphans, e)
			re.mu.Unlock()
		} else if m >= 0 {
			n = m
		}
	}
	return n
}

// entered records the holding after a grant with count n, sent at start.
// It reports whether a new holding began.
func (re *Reentrant) entered(n int64, start time.Time) (*hold, bool) {
	re.mu.Lock()
	defer re.mu.Unlock()
	if n == 1 || re.holdsNothing() {
		if re.cur != nil {
			re.cur.end(ErrLockLost) // the server no longer knew our old holding
		}
		re.cur = newHold(re.c.Clock, start, re.c.validity(0))
		return re.cur, true
	}
	re.cur.extend(start, re.c.validity(0))
	return re.cur, false
}

// Release removes the entry l was issued for; the last one frees the lock.
// A lease of another Locker, one released already, or one of a holding
// that is over gets ErrNotHeld and changes nothing. The Release of the
// holding's last open lease stops its renewals as it begins, and if it
// fails it ends the holding all the same (the entry left in Redis expires
// with the key, or goes at this value's next Acquire, which begins a new
// holding).
func (re *Reentrant) Release(ctx context.Context, l *Lease) error {
	if err := verifyRelease(l, re, re.key); err != nil {
		return wrap("release", re.key, err)
	}
	start := re.c.Clock.Now()
	last := l.h.openLeases() == 1 // the holder lets go of its last lease
	if last {
		l.h.letGo()
	}
	n, err := runInt(ctx, re.r, re.c.pit.releaseOr(reentrantReleaseScript), []string{re.key}, re.owner, re.c.ttlMS, l.id.entry)
	if err != nil {
		if last {
			l.h.endPartly(releaseFailed(err))
		}
		return wrap("release", re.key, err)
	}
	if n > 0 && l.spend() && l.h.openLeases() == 0 {
		n = re.dropOrphans(ctx, n)
	}
	switch {
	case n < 0:
		re.c.Metrics.lost()
		re.finish(l.h, ErrLockLost)
		return wrap("release", re.key, ErrNotHeld)
	case n == 0:
		re.c.Metrics.released()
		// The owner holds nothing any more: its current holding is over too.
		l.spend()
		re.finish(l.h, ErrReleased)
		re.mu.Lock()
		cur := re.cur
		re.mu.Unlock()
		re.finish(cur, ErrReleased)
	default:
		re.c.Metrics.released()
		l.spend()
		if re.c.WaitReplicas == 0 { // unconfirmed, the refreshed TTL is not relied on
			l.h.extend(start, re.c.validity(0))
		}
	}
	return nil
}

func (re *Reentrant) finish(h *hold, err error) {
	if h == nil {
		return
	}
	h.end(err)
	re.mu.Lock()
	if re.cur == h {
		re.cur = nil
	}
	re.mu.Unlock()
}

// Extend refreshes the TTL if this owner still holds the lock.
func (re *Reentrant) Extend(ctx context.Context, l *Lease) error {
	return re.ExtendTTL(ctx, l, re.c.TTL)
}

// ExtendTTL sets the lock's TTL to ttl if this owner still holds it (see
// TTLExtender); the next re-entry or partial release sets Options.TTL
// again.
func (re *Reentrant) ExtendTTL(ctx context.Context, l *Lease, ttl time.Duration) error {
	return extendOwned(ctx, &re.c, re.c.Metrics, l, re, re.key, ttl,
		func(ctx context.Context, ttl time.Duration) (bool, error) { return re.extendTo(ctx, l, ttl) },
		func() { re.finish(l.h, ErrLockLost) })
}

func (re *Reentrant) extend(ctx context.Context, l *Lease) (bool, error) {
	return re.extendTo(ctx, l, re.c.TTL)
}

func (re *Reentrant) extendTo(ctx context.Context, l *Lease, ttl time.Duration) (bool, error) {
	ctx, done, err := re.pin(ctx)
	if err != nil {
		return false, err
	}
	defer done()
	start := re.c.Clock.Now()
	n, err := runInt(ctx, re.conn(ctx), reentrantExtendScript, []string{re.key}, re.owner, re.c.ttlArg(ttl))
	if err != nil || n == 0 {
		return false, err
	}
	if err := re.confirmed(ctx, l.h.remaining); err != nil {
		re.c.Metrics.lost() // the lease ends here: the renewer and Extend count no loss for an error
		re.finish(l.h, fmt.Errorf("%w: renewal %w", ErrLockLost, err))
		return false, err
	}
	l.h.extend(start, re.c.validityFor(ttl, 0))
	return true, nil
}
