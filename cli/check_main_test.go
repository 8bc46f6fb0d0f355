//go:build !race

package cli

import (
	"strings"
	"testing"
)

// TestCheckPassesOnMain runs the embedded matrix with CI's budget: the
// committed code meets every expectation. It takes about half a minute of
// two cores, so -short skips it, and so does -race (CI runs the gate itself
// as `locksim check`, see docs/ci.md).
func TestCheckPassesOnMain(t *testing.T) {
	if testing.Short() {
		t.Skip("the full gate takes about a minute of CPU; run without -short")
	}
	out, _, err := runCLI(t, "check")
	if err != nil {
		t.Fatalf("locksim check on the committed code: %v\n%s", err, out)
	}
	if !strings.Contains(out, "check: ok:") {
		t.Errorf("check output lacks its verdict line:\n%s", out)
	}
}
