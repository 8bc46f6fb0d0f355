package model

import (
	"fmt"

	"github.com/anishathalye/porcupine"
)

// RegisterIn is one operation on the fenced register stored under Key: a
// read, or a write of Value, each with the fencing token Fence of the
// lease it was made under (0 = none).
type RegisterIn struct {
	Key   string
	Write bool
	Fence int64 // the request's fencing token (0 = none), reads' included
	Value int64 // the value written; ignored for reads
}

// RegisterOut is what a register operation observed.
type RegisterOut struct {
	// OK is, for a write, the store's claim that it accepted the write.
	// Reads ignore it.
	OK bool
	// Value is, for a read, the value returned. Writes ignore it.
	Value int64
	// Unknown marks an operation whose outcome is unknown (reply lost,
	// client crashed). OK and Value are then ignored.
	Unknown bool
}

// RegisterState is the fenced register: its value and the highest fencing
// token it has seen. The zero value is the initial state.
type RegisterState struct {
	Value int64
	Fence int64
}

// accepts reports whether the register accepts a write carrying fence: a
// token not below the highest seen (the reference FencedStore's rule).
func (s RegisterState) accepts(fence int64) bool { return fence >= s.Fence }

// RegisterModel returns the fenced-register model, the store's own rule:
// every request that carries a fencing token raises the highest token
// seen, reads included (a stale holder's write after a newer holder's
// read is rejected, though the newer one has written nothing yet); a
// write is accepted exactly when its token is at least the highest seen,
// and then sets the value. A write's recorded outcome (OK)
// must match that rule: a store that accepts a stale token, or rejects a
// current one, is not linearizable. A read returns the current value. An
// operation with an unknown outcome (its return is the history's end) is
// applied by the same rule: if it never reached the store, the checker
// may place it last, where it changes nothing.
func RegisterModel() porcupine.Model {
	return porcupine.Model{
		Partition:         partitionBy(func(in any) string { return in.(RegisterIn).Key }),
		Init:              func() any { return RegisterState{} },
		Step:              registerStep,
		Equal:             func(a, b any) bool { return a == b },
		Hash:              hashRegister,
		DescribeOperation: describeRegisterOp,
		DescribeState:     describeRegister,
	}
}

func registerStep(state, input, output any) (bool, any) {
	s := state.(RegisterState)
	in, out := input.(RegisterIn), output.(RegisterOut)
	if !in.Write {
		next := RegisterState{Value: s.Value, Fence: max(s.Fence, in.Fence)}
		return out.Unknown || out.Value == s.Value, next
	}
	accepted := s.accepts(in.Fence)
	if !out.Unknown && out.OK != accepted {
		return false, s
	}
	if accepted {
		return true, RegisterState{Value: in.Value, Fence: max(s.Fence, in.Fence)}
	}
	return true, s
}

func describeRegisterOp(input, output any) string {
	in, out := input.(RegisterIn), output.(RegisterOut)
	if !in.Write {
		if out.Unknown {
			return "read → ?"
		}
		return fmt.Sprintf("read → %d", out.Value)
	}
	verdict := "rejected"
	switch {
	case out.Unknown:
		verdict = "outcome unknown"
	case out.OK:
		verdict = "accepted"
	}
	return fmt.Sprintf("write %d fence=%d: %s", in.Value, in.Fence, verdict)
}

func hashRegister(state any) uint64 {
	r := state.(RegisterState)
	return mix(uint64(r.Value)) ^ mix(uint64(r.Fence)+0x9e3779b97f4a7c15)
}

func describeRegister(state any) string {
	s := state.(RegisterState)
	return fmt.Sprintf("value=%d highest fence=%d", s.Value, s.Fence)
}
