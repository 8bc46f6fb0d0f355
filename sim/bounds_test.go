package sim

import (
	"os"
	"strings"
	"testing"
)

// TestCapsDocumented: the README's exit codes give the caps the
// simulator holds a run to.
func TestCapsDocumented(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(data)), " ")
	for _, want := range []string{"1,000,000 recorded operations", "200,000 occurrences", "200,000,000 simulator events", "2 GiB of live heap"} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not give the cap %q", want)
		}
	}
	if MaxOps != 1_000_000 || MaxDrawnFaults != 200_000 || MaxEvents != 200_000_000 || MaxLiveHeap != 2<<30 || SoftMemoryLimit != 3<<30 {
		t.Errorf("MaxOps %d, MaxDrawnFaults %d, MaxEvents %d: update the README's exit codes", MaxOps, MaxDrawnFaults, MaxEvents)
	}
}
