package simprop

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/locksim/locksim/pattern"
)

// The mutation test: for every broken variant of the catalog, the
// property of the correct pattern it imitates finds a counterexample
// within a bounded number of checks, and the counterexample — written as
// a scenario file, read back and run again — shows the violation on the
// variant and none on the correct pattern.
//
// The search is rapid's, driven through rapid.Check with a TB that records
// the failure instead of failing the test (huntTB), from a fixed rapid
// seed so that the table is the same on every run; -simprop.seeds=N
// repeats it from N seeds and reports the most checks any seed needed.
// Shrinking is bounded by -rapid.shrinktime (default here: shrinkDefault),
// so on a slow machine the shrunk size can be larger than the minimum;
// the minimal counterexamples found so far are kept in
// testdata/counterexamples/ (rewritten with -simprop.update when a hunt
// shrinks further) and replayed by TestCommittedCounterexamples.

var (
	update = flag.Bool("simprop.update", false, "rewrite testdata/counterexamples when a hunt finds a smaller counterexample")
	seeds  = flag.Int("simprop.seeds", 1, "rapid seeds per mutation hunt")
)

// huntChecks bounds each hunt (raised by -rapid.checks).
const huntChecks = 300

// shrinkDefault bounds each hunt's shrinking unless -rapid.shrinktime is
// given: not at all in a plain go test. rapid checks its shrink deadline
// only between passes, and one pass over a slow variant runs for tens of
// seconds; the minimal counterexamples come from deeper runs (make
// rapid-deep SIMPROP_FLAGS=-simprop.update) and are kept.
const shrinkDefault = 0

const committedDir = "testdata/counterexamples"

// row is one line of the mutation table.
type row struct {
	m                     Mutation
	checks, first, shrunk int
	committed             int // faults in the committed counterexample, -1 if none
	took                  time.Duration
}

func TestMutations(t *testing.T) {
	var rows []row
	for _, m := range Mutations() {
		t.Run(m.Variant, func(t *testing.T) { rows = append(rows, huntMutation(t, m)) })
	}
	var b strings.Builder
	fmt.Fprintf(&b, "mutation table (rapid seeds 1..%d, at most %d checks each, shrinking %s):\n", *seeds, checksOr(huntChecks), shrinking())
	fmt.Fprintf(&b, "%-24s %-14s %-7s %-12s %-12s %-14s %s\n", "variant", "caught by", "checks", "first size", "shrunk size", "minimal (kept)", "time")
	for _, r := range rows {
		fmt.Fprintf(&b, "%-24s %-14s %-7d %-12d %-12d %-14s %v\n", r.m.Variant, r.m.Property, r.checks, r.first, r.shrunk,
			keptSize(r.committed), r.took.Round(10*time.Millisecond))
	}
	t.Log(b.String())
}

func shrinking() string {
	if v, ok := given["rapid.shrinktime"]; ok {
		return "up to " + v + " a pass"
	}
	return "off"
}

func keptSize(n int) string {
	if n < 0 {
		return "none"
	}
	return fmt.Sprint(n)
}

func huntMutation(t *testing.T, m Mutation) row {
	p, variant, correct := mutationParts(t, m)
	r := row{m: m, committed: committedSize(t, m)}
	var best Counterexample
	for s := 1; s <= *seeds; s++ {
		dir := t.TempDir()
		h := hunt(t, p, variant, checksOr(huntChecks), uint64(s), shrinkDefault, dir)
		r.took += h.Took
		if !h.Found() {
			t.Errorf("%s not caught by %s within %d checks (rapid seed %d)", m.Variant, m.Property, checksOr(huntChecks), s)
			continue
		}
		if h.Last.Err != nil {
			t.Errorf("%s under %s: the run failed: %v", m.Variant, m.Property, h.Last.Err)
			continue
		}
		cx := checkWritten(t, dir, Counterexample{Property: p, Pattern: m.Variant, Case: h.Last.Case, Violation: h.Last.Violation}, correct.Name)
		r.checks = max(r.checks, h.Checks)
		r.first = max(r.first, len(h.First.Case.Scenario.Faults))
		r.shrunk = max(r.shrunk, len(h.Last.Case.Scenario.Faults))
		if best.Pattern == "" || len(cx.Case.Scenario.Faults) < len(best.Case.Scenario.Faults) {
			best = cx
		}
	}
	if *update && best.Pattern != "" && (r.committed < 0 || len(best.Case.Scenario.Faults) < r.committed) {
		path := filepath.Join(committedDir, m.Variant+".txt")
		if err := os.MkdirAll(committedDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := best.WriteFile(path, filepath.Join("sim", "simprop", path)); err != nil {
			t.Fatal(err)
		}
		r.committed = len(best.Case.Scenario.Faults)
		t.Logf("%s: kept a %d-fault counterexample in %s", m.Variant, r.committed, path)
	}
	return r
}

func mutationParts(t *testing.T, m Mutation) (Property, pattern.Pattern, pattern.Pattern) {
	t.Helper()
	p, err := Lookup(m.Property)
	if err != nil {
		t.Fatal(err)
	}
	variant, err := pattern.Lookup(m.Variant)
	if err != nil {
		t.Fatal(err)
	}
	correct, err := pattern.Lookup(m.Correct)
	if err != nil {
		t.Fatal(err)
	}
	return p, variant, correct
}

// checkWritten reads back the counterexample the failing property wrote
// into dir, holds it equal to the shrunk case, and runs it again: the
// variant must show the violation, the correct pattern must not.
func checkWritten(t *testing.T, dir string, want Counterexample, correct string) Counterexample {
	t.Helper()
	got, err := Load(filepath.Join(dir, want.File()))
	if err != nil {
		t.Fatalf("reading the written counterexample: %v", err)
	}
	if d := cmp.Diff(want.Case.Scenario, got.Case.Scenario, scenarioOpts); d != "" || got.Case.Seed != want.Case.Seed {
		t.Errorf("written counterexample (seed %d) differs from the shrunk case (seed %d) (-shrunk +read):\n%s", got.Case.Seed, want.Case.Seed, d)
	}
	checkReplay(t, got, want.Pattern, correct)
	return got
}

// checkReplay runs c on the variant (a violation is expected) and on the
// correct pattern (none is: the schedule lies inside the envelope).
func checkReplay(t *testing.T, c Counterexample, variant, correct string) {
	t.Helper()
	if err := c.Property.Envelope.Admits(c.Case.Scenario); err != nil {
		t.Errorf("counterexample for %s lies outside its property: %v", variant, err)
	}
	if v, err := Replay(c, variant); err != nil || v == "" {
		t.Errorf("replaying the counterexample on %s: violation %q, error %v; want a violation", variant, v, err)
	}
	if n, m := nodesOf(t, variant), nodesOf(t, correct); n != m {
		t.Logf("%s runs on %d nodes, %s on %d: the counterexample is not run on %s", variant, n, correct, m, correct)
		return
	}
	if v, err := Replay(c, correct); err != nil || v != "" {
		t.Errorf("the counterexample for %s, run on %s: violation %q, error %v; want none", variant, correct, v, err)
	}
}

func nodesOf(t *testing.T, name string) int {
	t.Helper()
	p, err := pattern.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p.Nodes
}

func committedSize(t *testing.T, m Mutation) int {
	c, err := Load(filepath.Join(committedDir, m.Variant+".txt"))
	if errors.Is(err, fs.ErrNotExist) {
		return -1
	}
	if err != nil {
		t.Fatalf("kept counterexample of %s: %v", m.Variant, err)
	}
	return len(c.Case.Scenario.Faults)
}

// TestCommittedCounterexamples replays the kept minimal counterexamples:
// each still breaks its variant, stays inside its property's envelope,
// and is passed by the correct pattern.
func TestCommittedCounterexamples(t *testing.T) {
	for _, m := range Mutations() {
		t.Run(m.Variant, func(t *testing.T) {
			c, err := Load(filepath.Join(committedDir, m.Variant+".txt"))
			if err != nil {
				t.Fatalf("%v (go test -run TestMutations -simprop.update writes it)", err)
			}
			if c.Pattern != m.Variant || c.Property.Name != m.Property {
				t.Errorf("kept counterexample names %s/%s, want %s/%s", c.Pattern, c.Property.Name, m.Variant, m.Property)
			}
			checkReplay(t, c, m.Variant, m.Correct)
		})
	}
}

// TestEveryVariantIsHunted: each broken variant of the catalog has a
// mutation, whose correct pattern exists, is not broken and claims the
// property; no mutation names a pattern the catalog lacks.
func TestEveryVariantIsHunted(t *testing.T) {
	listed := map[string]bool{}
	for _, m := range Mutations() {
		listed[m.Variant] = true
		p, _, correct := mutationParts(t, m)
		if correct.Broken || !p.Claimed(correct.Name) {
			t.Errorf("%s: correct pattern %s (broken %v) does not claim %s", m.Variant, correct.Name, correct.Broken, p.Name)
		}
	}
	for _, pat := range pattern.All() {
		if pat.Broken && !listed[pat.Name] {
			t.Errorf("broken variant %s has no mutation: add one to Mutations", pat.Name)
		}
	}
}
