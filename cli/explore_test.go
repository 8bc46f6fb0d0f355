package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var exploreArgs = []string{"explore", "--pattern", "basic,fenced", "--scenario", "gc-pause,wrong-owner-release", "--seeds", "6", "--seed-start", "3", "--json"}

func TestExploreSameWhateverParallel(t *testing.T) {
	one, _, err := runCLI(t, append(exploreArgs, "--parallel", "1")...)
	if err != nil {
		t.Fatal(err)
	}
	two, stderr, err := runCLI(t, append(exploreArgs, "--parallel", "2")...)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(one, two); diff != "" {
		t.Fatalf("explore --json with --parallel 1 and 2 differ (-1 +2):\n%s", diff)
	}
	if !strings.Contains(one, `"pattern": "basic"`) || !strings.Contains(one, `"replay": "locksim run --pattern basic --scenario gc-pause --seed `) {
		t.Errorf("explore --json lacks basic's cell or its replay command:\n%s", one)
	}
	if !strings.Contains(stderr, "explore: 24/24 runs (100%)") {
		t.Errorf("stderr lacks the final progress line: %q", stderr)
	}
}

func TestExploreShardsMergeToUnsharded(t *testing.T) {
	whole, _, err := runCLI(t, exploreArgs...)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	for _, sh := range []string{"0/3", "1/3", "2/3"} {
		f := filepath.Join(dir, strings.ReplaceAll(sh, "/", "of")+".json")
		if _, _, err := runCLI(t, append(exploreArgs, "--shard", sh, "--out", f)...); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	merged, _, err := runCLI(t, append([]string{"merge", "--json"}, files...)...)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(whole, merged); diff != "" {
		t.Fatalf("merge of 3 shards differs from one unsharded explore (-whole +merged):\n%s", diff)
	}
	text, _, err := runCLI(t, append([]string{"merge"}, files[:2]...)...)
	if err != nil || !strings.Contains(text, "shards 0,1 of 3") {
		t.Errorf("merge of 2 of 3 shards = %v, text:\n%s\nwant it to say which shards it holds", err, text)
	}
}

func TestExploreBadUsage(t *testing.T) {
	dir := t.TempDir()
	notReport := filepath.Join(dir, "x.json")
	if err := os.WriteFile(notReport, []byte(`{"patterns": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"explore", "--scenario", "gc-pause"}, "--pattern"},
		{[]string{"explore", "--pattern", "nope", "--scenario", "gc-pause"}, `--pattern: unknown pattern "nope"`},
		{[]string{"explore", "--pattern", "basic", "--scenario", "nope"}, "--scenario nope: no such file, and no built-in scenario of that name"},
		{[]string{"explore", "--pattern", "basic", "--scenario", "gc-pause", "--seeds", "0"}, "--seeds 0"},
		{[]string{"explore", "--pattern", "basic", "--scenario", "gc-pause", "--seeds", "-4"}, "--seeds -4"},
		{[]string{"explore", "--pattern", "basic", "--scenario", "gc-pause", "--shard", "3/2"}, `--shard: shard "3/2"`},
		{[]string{"explore", "--pattern", "basic", "--scenario", "gc-pause", "--parallel", "0"}, "--parallel 0"},
		{[]string{"explore", "--pattern", "basic", "--scenario", "gc-pause", "--seeds", "x"}, "--seeds"},
		{[]string{"merge", filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"merge", notReport}, "x.json: not an exploration report"},
	} {
		_, _, err := runCLI(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("locksim %s: error %v, want one containing %q", strings.Join(tc.args, " "), err, tc.want)
		}
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("locksim %s: %v is not a usage error (exit 2)", strings.Join(tc.args, " "), err)
		}
		if code := run(tc.args); code != exitUsage {
			t.Errorf("locksim %s: exit %d, want %d", strings.Join(tc.args, " "), code, exitUsage)
		}
	}
}

func TestExploreProgressBar(t *testing.T) {
	_, stderr, err := runCLI(t, "explore", "--pattern", "basic", "--scenario", "gc-pause", "--seeds", "3", "--progress")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "explore") || !strings.Contains(stderr, "100%") || !strings.Contains(stderr, "(3/3") {
		t.Errorf("--progress: stderr %q, want a finished bar", stderr)
	}
}

// TestRenewEveryAppliesToRenewingPatterns: a scenario's pattern line is one
// team's settings, run under every pattern (a gate compares service and
// fenced under the same file): its renew-every sets the renewal period of
// the patterns that renew, and the others, whose locks refuse a
// RenewEvery, are built without it instead of refusing the scenario.
func TestRenewEveryAppliesToRenewingPatterns(t *testing.T) {
	sc := writeFile(t, "ours.txt", "scenario ours\nstart clients=2 duration=300ms\npattern ttl=300ms renew-every=90ms\n")
	_, _, err := runCLI(t, "explore", "--pattern", "all", "--scenario", sc, "--seeds", "1")
	if code := exitCode(err); code != exitOK && code != exitViolation {
		t.Errorf("explore --pattern all under renew-every=90ms: exit %d (%v), want every pattern run", code, err)
	}
}
