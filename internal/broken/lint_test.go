package broken_test

import (
	"testing"

	"github.com/locksim/locksim/seamlint"
)

// The broken variants run in the simulator like the correct patterns, so
// they obey the same rule as package locks: time, randomness and goroutines
// only through the seams (the rules and their proof are in
// seamlint).
func TestNoEscapeFromSeams(t *testing.T) {
	seamlint.Check(t, ".", 7)
}
