package model

import (
	"fmt"

	"github.com/anishathalye/porcupine"
)

// Mode is the side of a read-write lock a call is on.
type Mode uint8

// The two sides.
const (
	Write Mode = iota // exclusive: no other holder at all
	Read              // shared with other readers
)

func (m Mode) String() string {
	if m == Read {
		return "read"
	}
	return "write"
}

// RWIn is one call on the read-write lock Key by Owner (the lease's token)
// on one side: Acquire or Release.
type RWIn struct {
	Key   string
	Op    LockOp
	Mode  Mode
	Owner string
}

// RWState is who holds a read-write lock: one writer, or a set of
// readers, or nobody (the zero value).
type RWState struct {
	Writer  string
	Readers Owners
}

// RWModel returns the model of a read-write lock for runs in which no
// lease expires: no writer while anyone else holds it; readers share it.
// A write acquisition succeeds only when the lock is free and fails only
// when it is not; a read acquisition succeeds only with no writer, and may
// fail in any state (a waiting writer, which the history does not show,
// holds new readers off); a release succeeds exactly for a holder on that
// side. Outputs are LockOut (Count is not checked); a call with an unknown
// outcome takes effect if the state allows it and leaves the state alone
// otherwise.
func RWModel() porcupine.Model {
	return porcupine.Model{
		Partition:         partitionBy(func(in any) string { return in.(RWIn).Key }),
		Init:              func() any { return RWState{} },
		Step:              func(s, in, out any) (bool, any) { return rwStep(s.(RWState), in.(RWIn), out.(LockOut)) },
		Equal:             func(a, b any) bool { return a == b },
		Hash:              func(s any) uint64 { x := s.(RWState); return hashString(x.Writer) ^ mix(hashString(string(x.Readers))) },
		DescribeOperation: describeRWOp,
		DescribeState:     describeRW,
	}
}

func rwStep(s RWState, in RWIn, out LockOut) (bool, any) {
	next, can, canFail := rwEffect(s, in)
	return judge(effect[RWState]{next: next, failed: s, can: can, canFail: canFail}, out)
}

// rwEffect returns the state after in succeeds, whether it can succeed
// from s, and whether it can fail there.
func rwEffect(s RWState, in RWIn) (next RWState, can, canFail bool) {
	free := s.Writer == "" && s.Readers == ""
	switch {
	case in.Op == Acquire && in.Mode == Write:
		return RWState{Writer: in.Owner}, free && in.Owner != "", !free
	case in.Op == Acquire:
		fresh := in.Owner != "" && !s.Readers.Has(in.Owner)
		return RWState{Readers: s.Readers.With(in.Owner)}, s.Writer == "" && fresh, true
	case in.Op == Release && in.Mode == Write:
		held := s.Writer != "" && s.Writer == in.Owner
		return RWState{}, held, !held
	case in.Op == Release:
		held := s.Readers.Has(in.Owner)
		return RWState{Readers: s.Readers.Without(in.Owner)}, held, !held
	}
	return s, false, false
}

func describeRWOp(input, output any) string {
	in, out := input.(RWIn), output.(LockOut)
	return describeOutcome(fmt.Sprintf("%s-%s(%s)", in.Op, in.Mode, short(in.Owner)), out)
}

func describeRW(state any) string {
	s := state.(RWState)
	switch {
	case s.Writer != "":
		return "written by " + short(s.Writer)
	case s.Readers != "":
		return "read by " + s.Readers.String()
	}
	return "free"
}
