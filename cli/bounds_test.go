package cli

import (
	"fmt"
	"os"
	"testing"

	"github.com/locksim/locksim/sim"
)

// TestScenarioOverTheLimitsRefused: a scenario whose fault lines stand
// for more occurrences than a run may hold is bad usage (exit 2) in every
// command that simulates it, refused before any run with the line, the
// count and the limit; it ran out of memory before (and the runtime's
// exit 2 read as bad usage).
func TestScenarioOverTheLimitsRefused(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("storm.txt", []byte("start clients=1000\npause c* every=10us for=1us\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "storm.txt: line 2: pause: field every: 90,910,000 fault occurrences, over the limit of 100,000 in a run"
	for _, args := range [][]string{
		{"run", "--pattern", "basic", "--scenario", "storm.txt"},
		{"explore", "--pattern", "basic", "--scenario", "storm.txt", "--seeds", "2"},
		{"real", "--pattern", "basic", "--scenario", "storm.txt"},
	} {
		refused(t, want, nil, args...)
	}
}

// TestRunAtItsCapIsARuntimeError: a run the simulator stopped at one of
// its caps exits 3, not 2 (bad usage) nor 1 (a violation).
func TestRunAtItsCapIsARuntimeError(t *testing.T) {
	err := runtimeError{fmt.Errorf("sim: basic under x, seed 1: %w: its memory cap of 1000000 operations recorded", sim.ErrCap)}
	if code := exitCode(err); code != exitRuntime {
		t.Errorf("exitCode(%v) = %d, want %d", err, code, exitRuntime)
	}
	if code := exitCode(fmt.Errorf("sim: %w", sim.ErrCap)); code != exitRuntime {
		t.Errorf("exitCode of a bare ErrCap = %d, want %d", code, exitRuntime)
	}
}
