package explore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// goodPlan is a plan Build takes; each case of TestPlanRefuses spoils one
// flag of it.
func goodPlan() Plan {
	return Plan{Pattern: "basic", Scenario: "gc-pause", Seeds: Seeds{Start: 1, Count: 2}, Parallel: 2}
}

// TestPlanRefuses: a bad value of each flag is refused, before anything
// runs, with a *FlagError naming that flag and the message the explore
// command prints.
func TestPlanRefuses(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine.txt")
	writeFile(t, mine, "scenario gc-pause\nstart clients=2 duration=200ms\n")
	broken := filepath.Join(dir, "broken.txt")
	writeFile(t, broken, "start clients=0\n")
	threeNodes := filepath.Join(dir, "nodes3.txt")
	writeFile(t, threeNodes, "start nodes=3 clients=2 duration=200ms\n")
	missing := filepath.Join(dir, "missing.txt")
	for _, tc := range []struct {
		name, flag, want string
		spoil            func(*Plan)
	}{
		{"no pattern", "--pattern", "--pattern is required (a name, comma-separated names, or all)", func(p *Plan) { p.Pattern = "" }},
		{"no scenario", "--scenario", "--scenario is required (a built-in name, a file, or all)", func(p *Plan) { p.Scenario = "" }},
		{"no seeds", "--seeds", "--seeds 0: want at least 1", func(p *Plan) { p.Seeds.Count = 0 }},
		{"too many seeds", "--seeds", "--seeds 1000000001: want at most 1000000000", func(p *Plan) { p.Seeds.Count = MaxSeeds + 1 }},
		{"seeds past uint64", "--seed-start", "--seed-start: 18446744073709551615 + 2 seeds overflows a uint64", func(p *Plan) { p.Seeds.Start = ^uint64(0) }},
		{"no parallel", "--parallel", "--parallel 0: want at least 1", func(p *Plan) { p.Parallel = 0 }},
		{"too parallel", "--parallel", "--parallel 4097: want at most 4096", func(p *Plan) { p.Parallel = MaxParallel + 1 }},
		{"shard not i/n", "--shard", `--shard: shard "x": want i/n, e.g. 0/4`, func(p *Plan) { p.Shard = "x" }},
		{"shard past n", "--shard", `--shard: shard "3/2": i is 3, want 0 ≤ i < 2`, func(p *Plan) { p.Shard = "3/2" }},
		{"unknown pattern", "--pattern", `--pattern: unknown pattern "nope"`, func(p *Plan) { p.Pattern = "nope" }},
		{"pattern twice", "--pattern", "--pattern: basic given twice", func(p *Plan) { p.Pattern = "basic,basic" }},
		{"no such scenario", "--scenario", "--scenario " + missing + ": no such file, and no built-in scenario of that name (built-in: ", func(p *Plan) { p.Scenario = missing }},
		{"scenario a directory", "--scenario", "--scenario " + dir + ": a directory, not a scenario file", func(p *Plan) { p.Scenario = dir }},
		{"out a scenario file", "--out", "--out " + mine + " is the input --scenario " + mine + ": same file: refusing to overwrite an input", func(p *Plan) { p.Scenario, p.Out = mine, mine }},
		{"out a directory", "--out", "--out " + dir + ": not writable: it is a directory", func(p *Plan) { p.Out = dir }},
		{"scenario file broken", "--scenario", "--scenario: " + broken + ": start: field clients: 0, want at least 1", func(p *Plan) { p.Scenario = broken }},
		{"scenario twice", "--scenario", "--scenario: gc-pause given twice", func(p *Plan) { p.Scenario = "gc-pause,gc-pause" }},
		{"two scenarios of one name", "--scenario", "--scenario: " + mine + " and gc-pause are both named gc-pause (rename one in its scenario line)", func(p *Plan) { p.Scenario = mine + ",gc-pause" }},
		{"settings the pattern refuses", "--scenario", "--scenario " + threeNodes + ": the pattern refuses the scenario's lock settings: pattern basic with 3 nodes: pattern needs exactly 1 node, got 3", func(p *Plan) { p.Scenario = threeNodes }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := goodPlan()
			tc.spoil(&p)
			_, _, err := p.Build()
			var fe *FlagError
			if !errors.As(err, &fe) || fe.Flag != tc.flag || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Build(%+v) = %v, want a *FlagError for %s beginning %q", p, err, tc.flag, tc.want)
			}
		})
	}
}

// TestPlanRefusesBothCounts: --seeds and --parallel out of bounds at once
// are both named, one line each.
func TestPlanRefusesBothCounts(t *testing.T) {
	p := goodPlan()
	p.Seeds.Count, p.Parallel = 0, 0
	_, _, err := p.Build()
	var fe *FlagError
	if want := "--seeds 0: want at least 1\n--parallel 0: want at least 1"; err == nil || err.Error() != want || !errors.As(err, &fe) {
		t.Errorf("Build with no seeds and no parallel = %v, want %q of *FlagErrors", err, want)
	}
}

// TestPlanBuilds: a good plan gives every pattern × scenario cell,
// patterns outermost, and the options that run them.
func TestPlanBuilds(t *testing.T) {
	out := filepath.Join(t.TempDir(), "result.json")
	p := Plan{Pattern: "basic,fenced", Scenario: "gc-pause,partition", Seeds: Seeds{Start: 3, Count: 6}, Parallel: 3, Shard: "1/2", Out: out}
	cells, opt, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cells {
		if c.Seeds != p.Seeds {
			t.Errorf("cell %s/%s: seeds %+v, want %+v", c.Pattern.Name, c.Scenario.Name, c.Seeds, p.Seeds)
		}
		got = append(got, c.Pattern.Name+"/"+c.Scenario.Name)
	}
	if d := cmp.Diff([]string{"basic/gc-pause", "basic/partition", "fenced/gc-pause", "fenced/partition"}, got); d != "" {
		t.Errorf("cells (-want +got):\n%s", d)
	}
	if opt.Parallel != 3 || opt.Shard != (Shard{I: 1, N: 2}) {
		t.Errorf("options = %+v, want Parallel 3 and Shard 1/2", opt)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Build wrote --out (%v): it checks a path, it writes nothing", err)
	}
}
