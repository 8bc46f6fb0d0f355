package model

import (
	"fmt"

	"github.com/anishathalye/porcupine"
)

// SectionIn is the input of one critical section on the protected counter
// stored under Key: the holder reads the counter, works, and writes the
// value it read plus one.
type SectionIn struct {
	Key string
	// Fence is the fencing token the holder carried (0 if none). The
	// counter model ignores it; it is shown in descriptions.
	Fence int64
}

// SectionOut is what a critical section observed.
type SectionOut struct {
	// Read is the value the holder read.
	Read int64
	// Wrote is true when the write of Read+1 took effect; false when the
	// holder read but did not write (the store rejected a stale fencing
	// token, or the holder saw that its lease was lost).
	Wrote bool
	// Unknown marks a section whose outcome is unknown (the client crashed
	// or the write's reply was lost). Read and Wrote are then ignored.
	Unknown bool
}

// CounterModel returns the protected-counter model. Its state is the counter's
// value (int64, initially 0). A section that wrote steps from Read to
// Read+1; one that only read requires the state to be Read and leaves it;
// an unknown section increments whatever the state is.
//
// An unknown section is assumed atomic: a write that lands long after its
// read (a stale "v+1" delayed in the network) is modelled as an increment,
// so the model may miss the lost update such a write causes. The
// simulator's lost-update oracle, which sees every write the store
// applies, does not.
func CounterModel() porcupine.Model {
	return porcupine.Model{
		Partition:         partitionBy(func(in any) string { return in.(SectionIn).Key }),
		Init:              func() any { return int64(0) },
		Step:              counterStep,
		Equal:             func(a, b any) bool { return a == b },
		Hash:              hashCounter,
		DescribeOperation: describeSection,
		DescribeState:     describeCounter,
	}
}

func counterStep(state, input, output any) (bool, any) {
	v := state.(int64)
	out := output.(SectionOut)
	switch {
	case out.Unknown:
		return true, v + 1
	case v != out.Read:
		return false, state
	case out.Wrote:
		return true, v + 1
	default:
		return true, v
	}
}

func describeSection(input, output any) string {
	in, out := input.(SectionIn), output.(SectionOut)
	fence := ""
	if in.Fence != 0 {
		fence = fmt.Sprintf(" fence=%d", in.Fence)
	}
	switch {
	case out.Unknown:
		return fmt.Sprintf("section%s: outcome unknown (+1 or nothing)", fence)
	case out.Wrote:
		return fmt.Sprintf("section%s: read %d, wrote %d", fence, out.Read, out.Read+1)
	default:
		return fmt.Sprintf("section%s: read %d, did not write", fence, out.Read)
	}
}

func hashCounter(state any) uint64 { return mix(uint64(state.(int64))) }

func describeCounter(state any) string { return fmt.Sprintf("counter=%d", state.(int64)) }

// mix is splitmix64's finaliser: a cheap, well-spread hash of x.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

func hashString(s string) uint64 {
	h := uint64(14695981039346656037) // FNV-1a
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
