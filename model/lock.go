package model

import (
	"fmt"

	"github.com/anishathalye/porcupine"
)

// LockOp is an operation of the lock's own API.
type LockOp uint8

// The lock API's operations.
const (
	Acquire LockOp = iota + 1 // take the lock, or re-enter it if the owner holds it
	Release                   // drop one level of holding; the last one frees the lock
	Extend                    // push the expiry out; changes no state in this model
)

func (o LockOp) String() string {
	switch o {
	case Acquire:
		return "acquire"
	case Release:
		return "release"
	case Extend:
		return "extend"
	}
	return fmt.Sprintf("LockOp(%d)", uint8(o))
}

// LockIn is one call of the lock API on the lock Key by Owner (the owner
// id of a reentrant lock, or the lease's token for patterns that issue a
// fresh token per acquisition). A failed acquisition may leave Owner empty
// when the pattern drew a token that was never granted.
type LockIn struct {
	Key   string
	Op    LockOp
	Owner string
}

// LockOut is what a lock API call observed.
type LockOut struct {
	// OK: acquired (or re-entered), released, or extended.
	OK bool
	// Count is the hold count after a successful acquire, or what a
	// successful release left; 0 means "not reported" and is not checked.
	Count int
	// Unknown marks a call whose outcome is unknown. OK and Count are then
	// ignored.
	Unknown bool
}

// LockState is who holds the lock and how many times. The zero value is a
// free lock.
type LockState struct {
	Owner string
	Count int
}

// LockModel returns the model of the lock's API for runs in which no lease
// expires (and no node loses its data): at most one owner holds the lock;
// the holder may re-enter, each acquisition incrementing the hold count and
// each release decrementing it; a lock is acquired only when free or
// already the caller's; release and extend succeed only for the holder.
// An acquisition fails only while another owner holds the lock.
//
// Patterns that do not re-enter (Basic, Watchdog, Fenced, Redlock) issue a
// fresh token per acquisition, so the same owner never acquires twice and
// the model's re-entry rule is never exercised for them.
//
// A call with an unknown outcome takes effect if the state allows it and
// leaves the state alone otherwise.
func LockModel() porcupine.Model {
	return porcupine.Model{
		Partition:         partitionBy(func(in any) string { return in.(LockIn).Key }),
		Init:              func() any { return LockState{} },
		Step:              lockStep,
		Equal:             func(a, b any) bool { return a == b },
		Hash:              hashLock,
		DescribeOperation: describeLockOp,
		DescribeState:     describeLock,
	}
}

func lockStep(state, input, output any) (bool, any) {
	s := state.(LockState)
	in, out := input.(LockIn), output.(LockOut)
	next, canSucceed := lockEffect(s, in.Op, in.Owner)
	if !out.Unknown && out.OK && out.Count != 0 && out.Count != next.Count {
		return false, s // granted, but with a hold count the model does not reach
	}
	return judge(effect[LockState]{next: next, failed: s, can: canSucceed, canFail: lockCanFail(s, in.Op, in.Owner)}, out)
}

// lockEffect returns the state after op by owner succeeds, and whether it
// can succeed from s. An acquisition with no owner never succeeds.
func lockEffect(s LockState, op LockOp, owner string) (LockState, bool) {
	held := s.Count > 0 && s.Owner == owner
	switch op {
	case Acquire:
		if s.Count == 0 {
			return LockState{Owner: owner, Count: 1}, owner != ""
		}
		return LockState{Owner: owner, Count: s.Count + 1}, held
	case Release:
		if !held {
			return s, false
		}
		if s.Count == 1 {
			return LockState{}, true
		}
		return LockState{Owner: owner, Count: s.Count - 1}, true
	case Extend:
		return s, held
	}
	return s, false
}

// lockCanFail reports whether op by owner may fail in state s: an
// acquisition only while another owner holds the lock, a release or an
// extension only when the caller does not hold it.
func lockCanFail(s LockState, op LockOp, owner string) bool {
	held := s.Count > 0 && s.Owner == owner
	if op == Acquire {
		return s.Count > 0 && !held
	}
	return !held
}

func describeLockOp(input, output any) string {
	in, out := input.(LockIn), output.(LockOut)
	call := fmt.Sprintf("%s(%s)", in.Op, short(in.Owner))
	switch {
	case out.Unknown:
		return call + " → ?"
	case !out.OK:
		return call + " → refused"
	case out.Count != 0:
		return fmt.Sprintf("%s → ok, count %d", call, out.Count)
	}
	return call + " → ok"
}

func hashLock(state any) uint64 {
	l := state.(LockState)
	return hashString(l.Owner) ^ mix(uint64(l.Count))
}

func describeLock(state any) string {
	s := state.(LockState)
	if s.Count == 0 {
		return "free"
	}
	return fmt.Sprintf("held by %s ×%d", short(s.Owner), s.Count)
}

// short abbreviates a long owner token for display.
func short(owner string) string {
	switch {
	case owner == "":
		return "?"
	case len(owner) > 12:
		return owner[:10] + "…"
	}
	return owner
}
