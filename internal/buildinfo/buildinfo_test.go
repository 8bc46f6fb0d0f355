package buildinfo

import (
	"strings"
	"testing"
)

func TestStringNamesVersion(t *testing.T) {
	s := String()
	if !strings.HasPrefix(s, "locksim "+Version()) {
		t.Fatalf("String() = %q, want it to start with %q", s, "locksim "+Version())
	}
	if c := Commit(); c != "" && !strings.Contains(s, c) {
		t.Fatalf("String() = %q does not name commit %q", s, c)
	}
}
