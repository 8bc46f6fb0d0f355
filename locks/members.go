package locks

import (
	"context"
	"time"
)

// members is a set of owned holders (readers, permits): the SET at key holds
// their tokens and prefix+token is each one's own expiring key.
type members struct {
	r      Redis
	key    string
	prefix string
	c      *config
	m      *Metrics
}

// drop removes token's membership; it reports whether it was still held.
func (ms *members) drop(ctx context.Context, token string) (bool, error) {
	n, err := runInt(ctx, ms.r, memberReleaseScript, []string{ms.key}, token, ms.prefix)
	return n == 1, err
}

// release is the owner-checked release of l's membership.
func (ms *members) release(ctx context.Context, l *Lease) error {
	if err := verifyRelease(l, ms, ms.key); err != nil {
		return wrap("release", ms.key, err)
	}
	l.h.letGo() // a renewing holding's renewals stop as its release begins
	held, err := ms.drop(ctx, l.id.token)
	if err != nil {
		return wrap("release", ms.key, err)
	}
	if !held {
		return lostBy(ms.m, l, "release", ms.key, ErrNotHeld)
	}
	freed(ms.m, l)
	return nil
}

// extend resets the TTL of l's membership if it still holds.
func (ms *members) extend(ctx context.Context, l *Lease) error {
	if err := verify(l, ms, ms.key); err != nil {
		return wrap("extend", ms.key, err)
	}
	ok, err := ms.renew(ctx, l)
	if err != nil {
		return wrap("extend", ms.key, err)
	}
	if !ok {
		return lostBy(ms.m, l, "extend", ms.key, ErrNotHeld)
	}
	ms.m.renewed()
	return nil
}

// renew resets the TTL of l's membership and moves its validity; it
// reports (false, nil), counting nothing, when l no longer holds.
func (ms *members) renew(ctx context.Context, l *Lease) (bool, error) {
	start := ms.c.Clock.Now()
	n, err := runInt(ctx, ms.r, memberExtendScript, []string{ms.key}, l.id.token, ms.c.ttlMS, ms.prefix)
	if err != nil || n == 0 {
		return false, err
	}
	l.h.extend(start, ms.c.validity(0))
	return true, nil
}

// granted makes the lease for a membership granted to a request sent at
// start, or gives the membership back if no validity is left.
func (ms *members) granted(ctx context.Context, token string, start time.Time) (*Lease, error) {
	if err := ms.c.inTime(ctx, start, func(ctx context.Context) error { _, err := ms.drop(ctx, token); return err }); err != nil {
		return nil, wrap("acquire", ms.key, err)
	}
	return ms.c.lease(ms, ms.key, token, 0, start), nil
}
