package sim

import (
	"bytes"
	"encoding/json"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// output runs once and returns everything the run writes: the trace, the
// history and the result.
func output(t *testing.T, p pattern.Pattern, s scenario.Scenario, seed uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	res, err := Run(Config{Pattern: p, Scenario: s, Seed: seed, Trace: &buf})
	if err != nil {
		t.Fatalf("%s under %s: %v", p.Name, s.Name, err)
	}
	if err := res.History.Validate(); err != nil {
		t.Fatalf("%s under %s: history: %v", p.Name, s.Name, err)
	}
	buf.WriteString("----\n")
	if err := res.History.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	buf.Write(j)
	return buf.Bytes()
}

// TestSameSeedSameBytes runs every pattern of the catalog (broken variants
// included) under every built-in scenario twice with one seed and compares
// every byte written. Runs are cut to 1s (steady to 500ms) to keep the test
// quick; full lengths run in the benchmarks. -short keeps the patterns whose
// scripts the native node runs (the others go through miniredis' Lua, 50×
// slower).
func TestSameSeedSameBytes(t *testing.T) {
	for _, p := range pattern.All() {
		if testing.Short() && !slices.Contains([]string{"basic", "reentrant", "watchdog", "service", "fenced", "redlock"}, p.Name) {
			continue
		}
		for _, b := range scenario.Builtins() {
			s, err := b.Scenario(p.Nodes)
			if err != nil {
				t.Fatal(err)
			}
			s.Duration = min(s.Duration, time.Second)
			if b.Name == "steady" {
				s.Duration = 500 * time.Millisecond
			}
			first, second := output(t, p, s, 42), output(t, p, s, 42)
			if !bytes.Equal(first, second) {
				t.Errorf("%s under %s, seed 42: two runs differ (first difference at byte %d)", p.Name, b.Name, firstDiff(first, second))
			}
		}
	}
}

func TestOtherSeedOtherRun(t *testing.T) {
	p := lookupPattern(t, "basic")
	s := builtin(t, "gc-pause", p)
	if bytes.Equal(output(t, p, s, 1), output(t, p, s, 2)) {
		t.Error("seeds 1 and 2 wrote the same bytes: the seed does not reach the run")
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestNoGoroutineOutlivesARun: every simulated goroutine, the stall
// monitor and miniredis' are gone once Run returns.
func TestNoGoroutineOutlivesARun(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, name := range []string{"watchdog", "redlock", "service"} {
		p := lookupPattern(t, name)
		for _, scen := range []string{"gc-pause", "partition", "node-clock-jump"} {
			run(t, p, builtin(t, scen, p), 3)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond) // real time: goroutines unwind when the Go runtime gets to them, seen by no clock
	}
}
