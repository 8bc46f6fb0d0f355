package explore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/buildinfo"
	"github.com/locksim/locksim/pattern"
)

// fileShard explores fenced under the scenario file at path, one shard of
// seeds 1..4, and reads it back as merge would.
func fileShard(t *testing.T, path string, sh Shard, opt Options) *Report {
	t.Helper()
	sc, err := FromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pattern.Lookup("fenced")
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCell(p, sc, Seeds{Start: 1, Count: 4})
	if err != nil {
		t.Fatal(err)
	}
	opt.Shard, opt.Parallel = sh, 1
	rep, err := Run(context.Background(), []Cell{c}, opt)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(strings.NewReader(jsonOf(t, rep)))
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReportRecordsWhatItWasMadeFrom(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.txt")
	text := "start nodes=1 clients=2 ttl=100ms duration=300ms\npause c1 on=write for=150ms\n"
	writeFile(t, path, text)
	exp := &File{Path: "e.txt", SHA256: Hash([]byte("e"))}
	rep := fileShard(t, path, Shard{I: 0, N: 2}, Options{Expectations: exp})
	if rep.Made.Version != buildinfo.Version() || rep.Made.Commit != buildinfo.Commit() || *rep.Made.Expectations != *exp {
		t.Errorf("Made = %+v, want version %q, commit %q, expectations %+v", rep.Made, buildinfo.Version(), buildinfo.Commit(), exp)
	}
	if got, want := rep.Cells[0].ScenarioSHA256, Hash([]byte(text)); got != want {
		t.Errorf("scenario_sha256 = %s, want the file's sha256 %s", got, want)
	}
	if rep.Cells[0].Seeds != (Seeds{Start: 1, Count: 4}) || rep.Shard.N != 2 || rep.Shard.Have[0] != 0 {
		t.Errorf("seeds %+v, shard %+v; want 1+4, shard 0 of 2", rep.Cells[0].Seeds, rep.Shard)
	}
	b, err := Builtin("gc-pause")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := pattern.Lookup("basic")
	c, err := NewCell(p, b, Seeds{Start: 1, Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	if h := newReport([]Cell{c}, Shard{}, Provenance{}).Cells[0].ScenarioSHA256; len(h) != 64 {
		t.Errorf("a built-in's scenario_sha256 = %q, want the hash of its text", h)
	}
}

func TestMergeRefusesAScenarioFileWhoseContentChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.txt")
	writeFile(t, path, "start nodes=1 clients=2 ttl=100ms duration=300ms\npause c1 on=write for=150ms\n")
	s0 := fileShard(t, path, Shard{I: 0, N: 2}, Options{})
	writeFile(t, path, "start nodes=1 clients=2 ttl=120ms duration=300ms\npause c1 on=write for=150ms\n")
	s1 := fileShard(t, path, Shard{I: 1, N: 2}, Options{})
	_, err := Merge(s0, s1)
	if err == nil || !strings.Contains(err.Error(), "scenario_sha256 "+s1.Cells[0].ScenarioSHA256+", report 1 has "+s0.Cells[0].ScenarioSHA256) {
		t.Errorf("Merge of shards of two contents of %s = %v, want an error naming scenario_sha256 and both hashes", path, err)
	}
}

func TestMergeRefusesOtherProvenance(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.txt")
	writeFile(t, path, "start nodes=1 clients=2 ttl=100ms duration=300ms\npause c1 on=write for=150ms\n")
	exp := &File{Path: "e.txt", SHA256: "aa"}
	for _, tc := range []struct {
		name string
		edit func(r *Report)
		want string
	}{
		{"version", func(r *Report) { r.Made.Version = "v9.9.9" }, `made by locksim version "v9.9.9", report 1 by "` + buildinfo.Version() + `"`},
		{"commit", func(r *Report) { r.Made.Commit = "abcdef0" }, `made by locksim commit "abcdef0", report 1 by "` + buildinfo.Commit() + `"`},
		{"expectations", func(r *Report) { r.Made.Expectations = &File{Path: "e.txt", SHA256: "bb"} },
			"made for expectations e.txt (sha256 bb), report 1 for e.txt (sha256 aa)"},
		{"no expectations", func(r *Report) { r.Made.Expectations = nil }, "made for expectations none, report 1 for e.txt (sha256 aa)"},
	} {
		s0 := fileShard(t, path, Shard{I: 0, N: 2}, Options{Expectations: exp})
		s1 := fileShard(t, path, Shard{I: 1, N: 2}, Options{Expectations: exp})
		if _, err := Merge(s0, s1); err != nil {
			t.Fatalf("Merge of like shards = %v", err)
		}
		tc.edit(s1)
		if _, err := Merge(s0, s1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Merge with another %s = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

func TestMergeChecksThatCountsAddUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.txt")
	writeFile(t, path, "start nodes=1 clients=2 ttl=100ms duration=300ms\npause c1 on=write for=150ms\n")
	seed := func(s uint64) *uint64 { return &s }
	for _, tc := range []struct {
		name string
		edit func(c *CellResult)
		want string
	}{
		{"runs", func(c *CellResult) { c.Runs = 1001 }, "runs 1001, but seeds 1..4 in shards 1 of 2 are 2"},
		{"violating", func(c *CellResult) { c.ViolatingRuns = 3 }, "violating_runs 3, want 0..2"},
		{"errors", func(c *CellResult) { c.Errors = -1 }, "errors -1, want 0..2"},
		{"broke", func(c *CellResult) { c.Broke[Progress].Runs = 5 }, "broke progress in 5 runs, want 0..2"},
		{"fault", func(c *CellResult) { c.Faults[0].Fired = 7 }, `fault "pause c1 on=write for=150ms" fired in 7`},
		{"seed outside the shard", func(c *CellResult) { c.FirstViolated = seed(2) }, "first_violating_seed 2 is not one of the seeds 1..4 in shards 1 of 2"},
	} {
		s0 := fileShard(t, path, Shard{I: 0, N: 2}, Options{})
		s1 := fileShard(t, path, Shard{I: 1, N: 2}, Options{})
		tc.edit(&s1.Cells[0])
		_, err := Merge(s0, s1)
		if err == nil || !strings.Contains(err.Error(), "report 2: counts do not add up: cell 1 (fenced under mine): "+tc.want) {
			t.Errorf("Merge with edited %s = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}
