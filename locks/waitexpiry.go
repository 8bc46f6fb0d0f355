package locks

import (
	"errors"
	"time"
)

// This file holds how a waiter learns when the lock it found taken runs
// out. A refused acquisition script returns minus the lock key's PTTL, at
// least 1 (scripts/reentrant_acquire.lua and the others that say so).
//
// The first time in an Acquire that such a holding would run out before
// the backoff ends, the retry loop cuts that backoff in two and polls in
// between, as the holding runs out (the PTTL, +1ms for its whole
// milliseconds, plus a jitter of up to 1/64 of it, at least 1ms, so that
// waiters which met the same holding do not wake in step): a holder that
// vanished hands the lock on as its TTL runs out, not up to one backoff
// later. If that poll is refused too, the holder is alive (it renewed, or
// released and another took the lock): the waiter sleeps the rest of the
// backoff and goes on polling with its jittered backoff alone, as it
// would have without the extra poll. It makes one extra poll per Acquire
// at most, beyond Retry.Attempts (Metrics counts it as an attempt). Waking at every holding's expiry would lock a
// waiter into a holding's rhythm under contention — holders that release
// early and are followed at once make every expiry fall inside the next
// holding, so such a waiter is refused for ever (the simulator's
// wrong-owner-release scenario left a client stuck in 20 of 20 seeds that
// way) — where random polls find the gaps between holdings. Waiting less
// than the backoff is never less safe, only one more poll.

// atExpiry is the sleep of a waiter that met a holding with left to run,
// less than its backoff d: until the expiry, plus a jitter drawn from rnd
// of up to left/64 (at least 1ms), never past d.
func atExpiry(left, d time.Duration, rnd Rand) time.Duration {
	j := max(left/64, time.Millisecond)
	return min(left+time.Duration(rnd.Int64N(int64(j))), d)
}

// takenFor is the error of an attempt refused with the reply reply: a
// negative reply is minus the time the holding has left (in ms), which it
// carries for the retry loop (see expiresIn); 0 knows nothing of it.
func takenFor(reply int64, err error) error {
	if reply >= 0 {
		return err
	}
	// PTTL counts whole ms of the server's clock: a poll that soon could
	// come a fraction of a millisecond early.
	return &heldFor{err: err, left: time.Duration(-reply+1) * time.Millisecond}
}

// heldFor is a refusal that knows how long the holding it met has left.
type heldFor struct {
	err  error
	left time.Duration
}

func (h *heldFor) Error() string { return h.err.Error() }
func (h *heldFor) Unwrap() error { return h.err }

// expiresIn reports how long the lock a refused attempt met had left, if
// its error says.
func expiresIn(err error) (time.Duration, bool) {
	var h *heldFor
	if errors.As(err, &h) {
		return h.left, true
	}
	return 0, false
}
