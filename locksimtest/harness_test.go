package locksimtest_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/broken"
	"github.com/locksim/locksim/locksimtest"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// The tests select the broken variants by name beside the correct patterns.
func init() { broken.Extend(pattern.Default) }

func lookup(t *testing.T, name string) pattern.Pattern {
	t.Helper()
	p, err := pattern.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// fencedLimits are fenced's limitations under the built-ins, as the gate
// records them.
var fencedLimits = []string{
	"failover-async-replication        breaks safe-store,fencing,loss-signal  # a replica that missed the INCR issues a token again; the holder learns nothing until its validity ends",
	"fenced node-restart-without-persistence breaks safe-store,fencing,loss-signal  # the counter is lost with the node's data, and the key",
	"client-clock-drift breaks loss-signal  # the validity timer runs on the holder's slow clock",
	"node-clock-jump    breaks loss-signal  # the node's jump expires the key before the holder's validity ends",
}

// TestRunPassesAsExpected: fenced, with its two known limitations
// declared, passes under every built-in scenario.
func TestRunPassesAsExpected(t *testing.T) {
	locksimtest.Run(t, lookup(t, "fenced"), locksimtest.Options{Seeds: 3, Expect: fencedLimits, Dir: t.TempDir()})
}

// TestUndeclaredLimitationFails: a cell with no line defaults to "every
// claim holds", so basic under gc-pause fails with the seed, the claim, a
// counterexample that holds the scenario inline, porcupine's page and a
// replay command.
func TestUndeclaredLimitationFails(t *testing.T) {
	dir := t.TempDir()
	rep, err := locksimtest.Check(lookup(t, "basic"), locksimtest.Options{Seeds: 3, Dir: dir, TestName: "TestMine/basic"})
	if err != nil {
		t.Fatal(err)
	}
	f := findingFor(t, rep, "gc-pause", "mutex")
	if f.Expect != locksimtest.Holds || f.Seed == 0 || f.Broke == 0 || f.Source != "" {
		t.Errorf("finding = %+v, want mutex expected to hold by default, broken at some seed", f)
	}
	want := "go test -count=1 -run '^TestMine$/^basic$' -locksim.scenario=gc-pause -locksim.seed=" + itoa(f.Seed)
	if f.Replay != want {
		t.Errorf("Replay = %q, want %q", f.Replay, want)
	}
	for _, s := range []string{"basic under gc-pause", "claim mutex", "seed " + itoa(f.Seed), f.Counterexample, want} {
		if !strings.Contains(f.String(), s) {
			t.Errorf("finding text lacks %q:\n%s", s, f)
		}
	}
	checkCounterexample(t, f)
}

func checkCounterexample(t *testing.T, f locksimtest.Finding) {
	t.Helper()
	if !filepath.IsAbs(f.Counterexample) {
		t.Errorf("counterexample path %q is not absolute", f.Counterexample)
	}
	text, err := os.ReadFile(f.Counterexample)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.ParseString(string(text))
	if err != nil {
		t.Fatalf("counterexample does not parse as a scenario: %v\n%s", err, text)
	}
	if sc.Name != f.Scenario || !strings.Contains(string(text), f.Replay) {
		t.Errorf("counterexample names scenario %q (want %q), or lacks the replay:\n%s", sc.Name, f.Scenario, text)
	}
	for _, p := range []string{f.HTML, f.Trace} {
		data, err := os.ReadFile(p)
		if err != nil || len(data) == 0 {
			t.Errorf("%s: %v (%d bytes)", p, err, len(data))
		}
	}
	if page, _ := os.ReadFile(f.HTML); !strings.Contains(string(page), "<html") {
		t.Errorf("%s is not porcupine's page", f.HTML)
	}
}

func findingFor(t *testing.T, rep *locksimtest.Report, scenario, claim string) locksimtest.Finding {
	t.Helper()
	for _, f := range rep.Findings {
		if f.Scenario == scenario && f.Claim == claim {
			return f
		}
	}
	t.Fatalf("no finding for %s under %s in %s", claim, scenario, rep.Summary())
	return locksimtest.Finding{}
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

// TestBreaksNotSeenFails: a breaks line that no seed bears out fails: the
// harness must see the fault it was told of.
func TestBreaksNotSeenFails(t *testing.T) {
	rep, err := locksimtest.Check(lookup(t, "fenced"), locksimtest.Options{Seeds: 2, Dir: t.TempDir(),
		Expect: append([]string{"partition breaks fencing  # wrongly"}, fencedLimits...)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 1 {
		t.Fatalf("%d findings, want 1: %v", len(rep.Findings), rep.Findings)
	}
	f := findingFor(t, rep, "partition", "fencing")
	if f.Expect != locksimtest.Breaks || f.Source != "Expect[0]" || !strings.Contains(f.String(), "expected to break (Expect[0]) — wrongly") {
		t.Errorf("finding = %s", f)
	}
}

// TestScenarioAndExpectFiles: the user's scenario file runs beside (or,
// with NoBuiltins, instead of) the built-ins, with its pattern settings;
// an expectations file in the gate's syntax classifies it.
func TestScenarioAndExpectFiles(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "long-pause.txt")
	write(t, sc, "start clients=2 duration=20s\npattern ttl=2s renew-every=500ms\nworkload work=100ms jitter=0s\npause c1 on=write for=3s\n")
	exp := filepath.Join(dir, "expect.txt")
	write(t, exp, "# ours\nwatchdog long-pause breaks mutex  # a 3s pause outlasts the 2s TTL\nbasic long-pause holds mutex\nvariant basic-del of basic\n")
	o := locksimtest.Options{Seeds: 2, Dir: dir, Scenarios: []string{sc}, NoBuiltins: true, ExpectFile: exp}
	locksimtest.Run(t, lookup(t, "watchdog"), o)
	write(t, sc, "start clients=2 duration=20s\npattern ttl=5s renew-every=1s\nworkload work=100ms jitter=0s\npause c1 on=write for=3s\n")
	rep, err := locksimtest.Check(lookup(t, "watchdog"), o)
	if err != nil {
		t.Fatal(err)
	}
	if f := findingFor(t, rep, "long-pause", "mutex"); f.Source != exp+":2" || f.Expect != locksimtest.Breaks {
		t.Errorf("with a 5s TTL: %s\nwant the breaks line of %s:2 not borne out", f, exp)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBadInputIsAnError: bad lines, files and patterns are errors naming
// what was wrong.
func TestBadInputIsAnError(t *testing.T) {
	dir := t.TempDir()
	badScenario := filepath.Join(dir, "bad.txt")
	write(t, badScenario, "start\npattern renew-every=1h\n")
	fenced := lookup(t, "fenced")
	for _, tc := range []struct {
		name string
		p    pattern.Pattern
		o    locksimtest.Options
		want string
	}{
		{"unknown scenario", fenced, locksimtest.Options{Expect: []string{"gc-paws holds fencing"}}, `Expect[0]: scenario "gc-paws" is not run`},
		{"claim not made", fenced, locksimtest.Options{Expect: []string{"gc-pause holds mutex"}}, `claim "mutex": fenced claims safe-store, fencing`},
		{"bad verdict", fenced, locksimtest.Options{Expect: []string{"fenced gc-pause keeps fencing"}}, `verdict "keeps"`},
		{"claim twice", fenced, locksimtest.Options{Expect: []string{"gc-pause holds fencing", "gc-pause may fencing"}}, "already expected by Expect[0]"},
		{"bad seeds", fenced, locksimtest.Options{Expect: []string{"gc-pause holds fencing seeds=0"}}, `"seeds=0"`},
		{"missing expect file", fenced, locksimtest.Options{ExpectFile: filepath.Join(dir, "none.txt")}, "ExpectFile"},
		{"bad scenario file", fenced, locksimtest.Options{Scenarios: []string{badScenario}}, "bad.txt: line 2: pattern: field renew-every"},
		{"no scenarios", fenced, locksimtest.Options{NoBuiltins: true}, "no scenarios"},
		{"no constructor", pattern.Pattern{Name: "mine", Nodes: 1}, locksimtest.Options{}, "New is nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.Dir = dir
			_, err := locksimtest.Check(tc.p, tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestStarvationLines: no-starvation is checked only where a line names
// it; a client cut off for the whole run breaks it (and not progress: the
// other client takes turns).
func TestStarvationLines(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "cut-off.txt")
	write(t, sc, "start clients=2 duration=2s\npartition c1|n1 at=0s for=5s\n")
	o := locksimtest.Options{Seeds: 2, Dir: dir, Scenarios: []string{sc}, NoBuiltins: true}
	basic := lookup(t, "basic")
	o.Expect = []string{"cut-off breaks no-starvation  # c1 never reaches the node", "cut-off holds progress  # c2 takes turns"}
	locksimtest.Run(t, basic, o)
	o.Expect = []string{"cut-off holds no-starvation"}
	rep, err := locksimtest.Check(basic, o)
	if err != nil {
		t.Fatal(err)
	}
	if f := findingFor(t, rep, "cut-off", locksimtest.NoStarvation); f.Seed != 1 || f.Broke != 2 || len(rep.Findings) != 1 {
		t.Errorf("findings %v, want no-starvation broken at seed 1 in both runs, nothing else", rep.Findings)
	}
	o.Expect = nil
	if rep, err = locksimtest.Check(basic, o); err != nil || !rep.OK() {
		t.Errorf("with no line, no-starvation is not checked: %v, %v", rep.Findings, err)
	}
}

// TestProgressLines: every client cut off from the node for half the run
// leaves the lock free past the bound, which breaks progress.
func TestProgressLines(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "outage.txt")
	write(t, sc, "start clients=2 duration=2s\npartition c1,c2|n1 at=500ms for=1s\n")
	o := locksimtest.Options{Seeds: 2, Dir: dir, Scenarios: []string{sc}, NoBuiltins: true}
	basic := lookup(t, "basic")
	o.Expect = []string{"outage breaks progress  # nobody reaches the node for 10 TTL"}
	locksimtest.Run(t, basic, o)
	o.Expect = []string{"outage holds progress"}
	rep, err := locksimtest.Check(basic, o)
	if err != nil {
		t.Fatal(err)
	}
	if f := findingFor(t, rep, "outage", locksimtest.Progress); f.Seed != 1 || f.Broke != 2 {
		t.Errorf("findings %v, want progress broken at seed 1 in both runs", rep.Findings)
	}
}
