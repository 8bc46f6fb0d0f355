package locks

import (
	"context"
	"errors"
	"fmt"
)

// ErrPermitsMismatch: a Semaphore's N disagrees with the N stored for the
// semaphore in Redis (set by its first acquisition, or by Resize). It is
// permanent (it matches ErrPermanent too): Acquire returns it at once,
// without a permit, and does not retry. Build the client with the stored
// N, or change the stored N with Resize.
var ErrPermitsMismatch = errors.New("locks: semaphore permit count mismatch")

// PermitsError is ErrPermitsMismatch with the counts: the semaphore Name
// stores Stored permits, and this client was built with Permits.
type PermitsError struct {
	Name            string
	Permits, Stored int
}

func (e *PermitsError) Error() string {
	return fmt.Sprintf("%v: semaphore %q has %d permits, this client was built with %d (see Semaphore.Resize)",
		ErrPermitsMismatch, e.Name, e.Stored, e.Permits)
}

// Unwrap returns ErrPermitsMismatch and ErrPermanent: no retry cures it.
func (e *PermitsError) Unwrap() []error { return []error{ErrPermitsMismatch, ErrPermanent} }

// SemaphoreSizeKey is the key that stores the N of the semaphore named
// name, in the hash slot of its other keys (see SemaphoreKeys). It never
// expires.
func SemaphoreSizeKey(name string) string { return "{" + name + "}:size" }

// mismatch is the error of a script sent with N n that found stored as
// the stored N.
func (s *Semaphore) mismatch(n int, stored int64) error {
	return &PermitsError{Name: s.name, Permits: n, Stored: int(stored)}
}

// Resize changes the semaphore's N, stored in Redis, from this client's N
// to n (n ≥ 1), atomically, and makes n this client's N. It is refused
// with a *PermitsError, changing nothing, if the stored N is not this
// client's N (someone resized it first, or this client was built with
// another N): a resize is a compare-and-set, so two resizes cannot
// silently overwrite each other.
//
// Holdings stay as they are: after a shrink, the permits held beyond the
// new N are held until released or expired, and new grants wait until the
// permits held fit under it. Every other client built with the old N gets
// ErrPermitsMismatch from its next acquisition, and must be rebuilt with
// n. Changing N is a method, and not an option, so that it is one explicit
// act by one caller: a client that merely starts with another N is refused,
// never obeyed.
func (s *Semaphore) Resize(ctx context.Context, n int) error {
	if n < 1 {
		return &OptionError{"permits", n, "must be at least 1"}
	}
	from := s.Permits()
	ok, err := runInt(ctx, s.permits.r, semResizeScript, []string{s.size}, from, n)
	switch {
	case err != nil:
		return wrap("resize", s.size, err)
	case ok < 0:
		return wrap("resize", s.size, s.mismatch(from, -ok))
	}
	s.n.CompareAndSwap(int64(from), int64(n))
	return nil
}

// Available is the number of permits free now: the stored N (this
// client's N if none is stored yet) less the permits live holdings hold,
// at least 0. A stored N that disagrees with this client's gets a
// *PermitsError, as an acquisition would.
func (s *Semaphore) Available(ctx context.Context) (int, error) {
	ms, n := &s.permits, s.Permits()
	v, err := semAvailableScript.Run(ctx, ms.r, []string{ms.key, s.size}, ms.prefix).Int64Slice()
	switch {
	case err != nil:
		return 0, wrap("available", ms.key, err)
	case len(v) != 2:
		return 0, wrap("available", ms.key, fmt.Errorf("sem_available returned %d values, want 2", len(v)))
	case v[0] != 0 && v[0] != int64(n):
		return 0, wrap("available", ms.key, s.mismatch(n, v[0]))
	}
	return max(n-int(v[1]), 0), nil
}
