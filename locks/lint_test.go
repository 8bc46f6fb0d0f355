package locks

import (
	"testing"

	"github.com/locksim/locksim/seamlint"
)

// TestNoEscapeFromSeams fails if lock code calls time, context deadlines or
// global rand directly, imports math/rand (v1), or starts a bare goroutine
// (the rules and their proof are in seamlint).
func TestNoEscapeFromSeams(t *testing.T) {
	seamlint.Check(t, ".", 5)
}
