package locks

import (
	"context"
	"time"
)

// This file holds Service's priority for its starving waiters: a waiter
// that has waited Options.StarveAfter is queued in a ZSET beside the lock
// (token -> arrival number), each entry live while the waiter's own key
// exists; that key expires starveTTL after the waiter's last attempt, so
// a waiter that vanished stops holding anyone back by then. While a
// starving waiter is queued, the acquire script (service_acquire.lua)
// grants the lock anew only to the first one, which leaves the queue in
// the grant's own step; the release that frees the lock
// (service_release.lua) pushes to that waiter's wake list, on which it
// spends its backoff blocked (BLPOP, see wake.go). Waiters below the bound
// are untouched: the uncontended and lightly contended paths poll and
// barge as before, paying one EXISTS on the empty queue per attempt.
//
// A grant to a starving waiter is its own acquisition request, like any
// other: the validity is measured from before it was sent, and a waiter
// that vanishes once granted holds the lock until the TTL, as any holder
// does. A waiter that gives up (context done, attempts spent) leaves the
// queue and, if the lock is free, wakes the next one.

// starveKeys are the keys of a Service's starving waiters, in the lock's
// hash slot.
type starveKeys struct {
	queue   string        // ZSET token -> arrival number
	members string        // prefix of each waiter's expiring key
	wake    string        // prefix of each waiter's wake list
	after   time.Duration // Options.StarveAfter
	ttlMS   int64         // a waiter key's TTL
}

// newStarveKeys returns the starving waiters' keys of the lock hash key,
// or nil when after is 0 or no name derived from key shares its hash slot
// (a key with '}' but no hash tag): then the Service keeps no queue.
func newStarveKeys(key string, after time.Duration, c *config) *starveKeys {
	if after <= 0 {
		return nil
	}
	tag := slotTag(key)
	if keySlot(tag) != keySlot(key) {
		return nil
	}
	ttl := max(3*c.Retry.MaxDelay, after, time.Millisecond).Truncate(time.Millisecond)
	return &starveKeys{queue: tag + ":starve", members: tag + ":sw:", wake: tag + ":wake:", after: after, ttlMS: ttl.Milliseconds()}
}

// slotTag is a hash tag that puts a name in key's slot: key's own tag if
// it has one (the key itself then serves: its first tag stays first),
// else "{key}".
func slotTag(key string) string {
	if i := indexTag(key); i >= 0 {
		return key
	}
	return "{" + key + "}"
}

// indexTag is the index of key's hash tag's '{', or -1 if key has none.
func indexTag(key string) int {
	for i := 0; i < len(key); i++ {
		if key[i] != '{' {
			continue
		}
		for j := i + 1; j < len(key); j++ {
			if key[j] == '}' {
				if j > i+1 {
					return i
				}
				return -1
			}
		}
		return -1
	}
	return -1
}

// acquire is Service.Acquire with the starving waiters' priority: each
// attempt made StarveAfter or more after the first is a starving one (the
// backoff that would cross the bound is cut to end at it), and from the
// first of them on the backoff is spent blocked on the waiter's wake
// list.
func (k *starveKeys) acquire(ctx context.Context, s *Service) (*Lease, error) {
	c := &s.re.c
	token := c.Rand.Token()
	begin := c.Clock.Now()
	me := "" // token once starving; touched only by this Acquire's loop
	w := newWaker(s.re.r, k.wake, token, c, max(c.TTL/3, time.Millisecond))
	wait := func(ctx context.Context, d time.Duration) error {
		if me != "" {
			return w.wait(ctx, d)
		}
		// Wake up when the bound is reached, not a whole backoff later.
		return c.Clock.Sleep(ctx, min(d, max(k.after-c.Clock.Since(begin), 0)))
	}
	try := func() (*Lease, error) {
		if me == "" && c.Clock.Since(begin) >= k.after {
			me = token
		}
		return s.try(ctx, me)
	}
	leave := func(ctx context.Context) {
		if me != "" {
			_ = k.leave(ctx, s.re, token)
		}
	}
	return wokenLoop(ctx, c, s.m, wait, try, leave)
}

// leave removes token from the queue and wakes the next starving waiter
// if the lock is free.
func (k *starveKeys) leave(ctx context.Context, re *Reentrant, token string) error {
	_, err := runInt(ctx, re.r, serviceLeaveScript, []string{re.key, k.queue},
		token, k.members, k.wake, re.c.wakeTTL())
	return err
}
