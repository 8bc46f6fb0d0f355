package locks

import (
	"errors"
	"time"
)

// This file holds how a waiter learns when the lock it found taken runs
// out. A refused acquisition script returns minus the lock key's PTTL, at
// least 1 (scripts/reentrant_acquire.lua and the others that say so), and the
// retry loop waits min(backoff, that PTTL + 1ms) before its next attempt: a
// holder that vanished hands the lock on as its TTL runs out, not up to
// one backoff later. A holder that renews or releases changes nothing: the
// waiter polls at the old expiry, finds the key renewed (or free), and
// goes on with its backoff. Waiting less than the backoff is never less
// safe, only one more poll.

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
