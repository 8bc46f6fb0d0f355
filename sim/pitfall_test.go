package sim

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/pitfall"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// TestZeroPitfallIsThePattern: a pattern built with the zero
// pitfall.Pitfall (pitfall.With(Options, pitfall.Pitfall{})) writes its
// pattern's golden trace byte for byte, for every pattern a broken variant
// is built on: the hooks change nothing until a step is set, so what a
// variant changes is its step alone.
func TestZeroPitfallIsThePattern(t *testing.T) {
	for _, file := range []string{"basic-gc-pause", "watchdog-slow-work", "fenced-gc-pause",
		"reentrant-reenter", "service-slow-work", "redlock-node-clock-jump", "watchdog-fenced-gc-pause"} {
		t.Run(file, func(t *testing.T) {
			head, want := goldenFile(t, "testdata/"+file+".txt")
			var pat string
			var seed uint64
			if _, err := fmt.Sscanf(head, "# run pattern=%s seed=%d\n", &pat, &seed); err != nil {
				t.Fatalf("%s: first line: %v", file, err)
			}
			s, err := scenario.ParseString(head)
			if err != nil {
				t.Fatal(err)
			}
			p := lookupPattern(t, pat)
			base := p.New
			p.New = func(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error) {
				return base(nodes, key, pitfall.With(o, pitfall.Pitfall{}))
			}
			if got := pitfallRun(t, p, s, seed); got != want {
				t.Errorf("%s with the zero Pitfall: trace differs from its golden one:\n%s", pat, lineDiff(want, got))
			}
		})
	}
}

// goldenFile reads a golden trace file: its scenario head and its trace.
func goldenFile(t *testing.T, file string) (head, trace string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	head, trace, ok := strings.Cut(string(data), "----\n")
	if !ok {
		t.Fatalf("%s: no ---- separator", file)
	}
	return head, trace
}

func pitfallRun(t *testing.T, p pattern.Pattern, s scenario.Scenario, seed uint64) string {
	t.Helper()
	var got bytes.Buffer
	if _, err := Run(Config{Pattern: p, Scenario: s, Seed: seed, Trace: &got}); err != nil {
		t.Fatal(err)
	}
	return got.String()
}
