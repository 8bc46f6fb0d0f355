package broken

import (
	"context"

	"github.com/locksim/locksim/locks"
)

// ReentrantNoCount is the pitfall "reentrant-nocount": re-entry without a
// count. The owner may take the lock again while holding it (the key holds
// the owner id; SET NX, or a TTL refresh when the key is already ours), but
// nothing counts the entries, and every release is an owner-checked DEL.
//
// So the first release — the innermost section's — frees the lock while
// the outer section still runs and still holds a valid lease; another
// client acquires at once and two holders run side by side. The correct
// Reentrant keeps {owner: count} and frees the lock at count zero.
//
// The seed article shows the other face of the same mistake: a nested
// SET NX with no re-entry at all, so the owner deadlocks on its own lock.
// That face is a liveness failure (the Basic lock used re-entrantly); this
// variant keeps the re-entry the code path expects and shows the safety
// failure, which the Mutex claim of Reentrant can catch.
type ReentrantNoCount struct {
	r     locks.Redis
	b     base
	owner string
	hs    holdings
}

var _ locks.Locker = (*ReentrantNoCount)(nil)

// NewReentrantNoCount returns the reentrant-nocount variant on key, owned
// by o.Owner (or a fresh owner token).
func NewReentrantNoCount(r locks.Redis, key string, o locks.Options) (*ReentrantNoCount, error) {
	if r == nil {
		return nil, &locks.OptionError{Field: "Redis", Value: "nil", Rule: "must be set"}
	}
	b, err := newBase(key, o)
	if err != nil {
		return nil, err
	}
	owner := o.Owner
	if owner == "" {
		owner = b.rnd.Token()
	}
	return &ReentrantNoCount{r: r, b: b, owner: owner}, nil
}

// Owner is the owner id written into the key.
func (re *ReentrantNoCount) Owner() string { return re.owner }

// Acquire takes the lock, or re-enters it if this owner holds it. Every
// lease reports Count 1: there is no count.
func (re *ReentrantNoCount) Acquire(ctx context.Context) (*locks.Lease, error) {
	return re.b.acquire(ctx, func() (*locks.Lease, error) {
		start := re.b.clk.Now()
		n, err := runInt(ctx, re.r, reenterScript, []string{re.b.key}, re.owner, re.b.ttl.Milliseconds())
		if err != nil {
			return nil, keyErr("acquire", re.b.key, err)
		}
		if n == 0 || re.b.validity(re.b.clk.Since(start)) <= 0 {
			return nil, keyErr("acquire", re.b.key, locks.ErrNotAcquired)
		}
		l, g := locks.NewLease(re.b.clk, re.b.key, re.owner, 0, 1, start, re.b.validity(0))
		re.hs.add(l, g, nil)
		return l, nil
	})
}

// Release deletes the key if this owner holds it — on the first release,
// however many entries are still open: the pitfall.
func (re *ReentrantNoCount) Release(ctx context.Context, l *locks.Lease) error {
	n, err := runInt(ctx, re.r, releaseScript, []string{re.b.key}, re.owner)
	return re.hs.released(l, re.b.key, n, err)
}
