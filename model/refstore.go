package model

// FencedStore is the reference model of the protected store: a counter that,
// when Checking, accepts a write only if its fencing token is at least the
// highest it has seen on any request, reads included (the fenced register).
// Without Checking it accepts every write, like a store that knows nothing
// of fencing.
//
// It is what RegisterModel specifies, as a plain value: a property test or a
// simulator can run it and compare, and its Write outcome is the OK that a
// history's write records.
type FencedStore struct {
	Checking bool
	value    int64
	highest  int64
}

// Read returns the current value.
func (s *FencedStore) Read() int64 { return s.value }

// ReadFenced returns the current value to a read made under fence, which
// raises the highest token seen.
func (s *FencedStore) ReadFenced(fence int64) int64 {
	s.highest = max(s.highest, fence)
	return s.value
}

// Highest is the highest fencing token seen so far (0 before any).
func (s *FencedStore) Highest() int64 { return s.highest }

// Write stores value if the store accepts fence, and reports whether it did.
// A rejected write changes nothing.
func (s *FencedStore) Write(fence, value int64) bool {
	if s.Checking && fence < s.highest {
		return false
	}
	s.value = value
	s.highest = max(s.highest, fence)
	return true
}
