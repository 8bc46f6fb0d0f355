package locks

import (
	"testing"

	"github.com/locksim/locksim/seamlint"
)

// TestNoEscapeFromSeams fails if lock code calls time, context deadlines or
// global rand directly, imports math/rand (v1), or starts a bare goroutine
// (the rules and their proof are in seamlint).
func TestNoEscapeFromSeams(t *testing.T) {
	v, checked, err := seamlint.Dir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range v {
		t.Error(s)
	}
	if checked < 5 {
		t.Fatalf("checked only %d files; the glob is wrong", checked)
	}
}
