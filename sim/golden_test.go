package sim

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

var update = flag.Bool("update", false, "rewrite the golden traces in testdata/")

// TestGoldenTraces runs each testdata/*.txt — a first line "# run
// pattern=P seed=N", a scenario, a line "----" — twice, checks that both
// runs write the same bytes, and compares the trace with what follows the
// separator. go test -run TestGoldenTraces -update rewrites them; review
// the diff.
func TestGoldenTraces(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) { golden(t, file) })
	}
}

func golden(t *testing.T, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	head, want, ok := strings.Cut(string(data), "----\n")
	if !ok {
		t.Fatalf("%s: no ---- separator", file)
	}
	var pat string
	var seed uint64
	if _, err := fmt.Sscanf(head, "# run pattern=%s seed=%d\n", &pat, &seed); err != nil {
		t.Fatalf("%s: first line: %v (want # run pattern=P seed=N)", file, err)
	}
	s, err := scenario.ParseString(head)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	got := goldenRun(t, pat, s, seed)
	if again := goldenRun(t, pat, s, seed); again.String() != got.String() {
		t.Fatalf("%s: the same seed wrote two different traces:\n%s", file, lineDiff(got.String(), again.String()))
	}
	if *update {
		if err := os.WriteFile(file, []byte(head+"----\n"+got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got.String() != want {
		t.Errorf("%s: trace differs from the golden one (go test -run TestGoldenTraces -update, then review the diff):\n%s", file, lineDiff(want, got.String()))
	}
}

// goldenRun runs pattern pat under s with seed and returns its trace.
func goldenRun(t *testing.T, pat string, s scenario.Scenario, seed uint64) *bytes.Buffer {
	t.Helper()
	var got bytes.Buffer
	if _, err := Run(Config{Pattern: lookupPattern(t, pat), Scenario: s, Seed: seed, Trace: &got}); err != nil {
		t.Fatal(err)
	}
	return &got
}

// TestGoldenTracesCoverEveryPattern fails when a registered pattern or
// broken variant has no golden trace (a testdata file whose first line
// names it).
func TestGoldenTracesCoverEveryPattern(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var pat string
		if _, err := fmt.Sscanf(string(data), "# run pattern=%s ", &pat); err == nil {
			covered[pat] = true
		}
	}
	for _, p := range pattern.All() {
		if !covered[p.Name] {
			t.Errorf("pattern %s has no golden trace in testdata/ (add one: a first line # run pattern=%s seed=N, a short scenario, ----)", p.Name, p.Name)
		}
	}
}

// lineDiff shows the first differing line and a little context.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\nwant %s\ngot  %s", i+1, wl, gl)
		}
	}
	return "(no line differs)"
}
