package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exploreShard runs shard sh of fenced under the scenario file at path,
// seeds 1..4, into out.
func exploreShard(t *testing.T, path, sh, out string) {
	t.Helper()
	if _, _, err := runCLI(t, "explore", "--pattern", "fenced", "--scenario", path, "--seeds", "4", "--shard", sh, "--json", "--out", out); err != nil {
		t.Fatal(err)
	}
}

func TestMergeRefusesShardsOfAnotherScenarioContent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.txt")
	if err := os.WriteFile(path, []byte("start nodes=1 clients=2 ttl=100ms duration=300ms\npause c1 on=write for=150ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s0, s1 := filepath.Join(dir, "s0.json"), filepath.Join(dir, "s1.json")
	exploreShard(t, path, "0/2", s0)
	if err := os.WriteFile(path, []byte("start nodes=1 clients=2 ttl=120ms duration=300ms\npause c1 on=write for=150ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exploreShard(t, path, "1/2", s1)
	_, _, err := runCLI(t, "merge", s0, s1)
	if exitCode(err) != exitUsage || err == nil || !strings.Contains(err.Error(), "scenario_sha256") {
		t.Errorf("merge of shards of two contents of one file: exit %d, %v; want exit 2 naming scenario_sha256", exitCode(err), err)
	}
}

func TestMergeRefusesAnEditedRunCount(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.txt")
	if err := os.WriteFile(path, []byte("start nodes=1 clients=2 ttl=100ms duration=300ms\npause c1 on=write for=150ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s0, s1 := filepath.Join(dir, "s0.json"), filepath.Join(dir, "s1.json")
	exploreShard(t, path, "0/2", s0)
	exploreShard(t, path, "1/2", s1)
	data, err := os.ReadFile(s1)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"runs": 2,`, `"runs": 1001,`, 1)
	if edited == string(data) {
		t.Fatalf("no \"runs\": 2 in %s:\n%s", s1, data)
	}
	if err := os.WriteFile(s1, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runCLI(t, "merge", s0, s1)
	if exitCode(err) != exitUsage || err == nil || !strings.Contains(err.Error(), "runs 1001, but seeds 1..4 in shards 1 of 2 are 2") {
		t.Errorf("merge with RUNS edited to 1001: exit %d, %v; want exit 2 saying the runs do not add up", exitCode(err), err)
	}
}

// A shard whose figures disagree with its own cell (a violating cell
// edited to say it violated nothing, or a rate edited) is refused, not
// merged into a clean verdict.
func TestMergeRefusesAShardInconsistentWithItsCells(t *testing.T) {
	dir := t.TempDir()
	s0, s1 := filepath.Join(dir, "s0.json"), filepath.Join(dir, "s1.json")
	for sh, out := range map[string]string{"0/2": s0, "1/2": s1} {
		if _, _, err := runCLI(t, "explore", "--pattern", "basic-del", "--scenario", "gc-pause", "--seeds", "4", "--shard", sh, "--json", "--out", out); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(s1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		old, new  []string
		wantError string
	}{
		{"violating_runs 0", []string{`"violating_runs": 2,`}, []string{`"violating_runs": 0,`}, "violating_runs 0 with first_violating_seed 1"},
		{"violating_runs 0 and no first seed or replay",
			[]string{`"violating_runs": 2,`, "\n      \"first_violating_seed\": 1,", ",\n      \"replay\": \"locksim run --pattern basic-del --scenario gc-pause --seed 1\""},
			[]string{`"violating_runs": 0,`, "", ""}, "broke mutex in 2 runs, but violating_runs is 0"},
		{"a rate", []string{`"violations_per_sim_hour": 12600,`}, []string{`"violations_per_sim_hour": 0,`}, "violations_per_sim_hour 0, but the cell's counts give 12600"},
	} {
		edited := string(data)
		for i := range tc.old {
			if !strings.Contains(edited, tc.old[i]) {
				t.Fatalf("%s: no %q in %s:\n%s", tc.name, tc.old[i], s1, data)
			}
			edited = strings.Replace(edited, tc.old[i], tc.new[i], 1)
		}
		path := filepath.Join(dir, "edited.json")
		if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err = runCLI(t, "merge", s0, path)
		if exitCode(err) != exitUsage || err == nil || !strings.Contains(err.Error(), tc.wantError) {
			t.Errorf("merge with %s: exit %d, %v; want exit 2 saying %q", tc.name, exitCode(err), err, tc.wantError)
		}
	}
	if _, _, err := runCLI(t, "merge", s0, s1); err != nil {
		t.Errorf("merge of the shards as explore wrote them: %v", err)
	}
}
