package explore

import (
	"context"
	"strings"
	"testing"
)

func shardReport(t *testing.T, cells []Cell, sh Shard) *Report {
	t.Helper()
	rep, err := Run(context.Background(), cells, Options{Parallel: 2, Shard: sh, Run: fakeRun})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestMergeRefuses(t *testing.T) {
	cells := smallGrid(t, Seeds{Start: 1, Count: 10})
	s0 := shardReport(t, cells, Shard{0, 2})
	s1 := shardReport(t, cells, Shard{1, 2})
	whole := shardReport(t, cells, Shard{})
	of3 := shardReport(t, cells, Shard{1, 3})
	other := shardReport(t, smallGrid(t, Seeds{Start: 1, Count: 11}), Shard{1, 2})
	fewer := shardReport(t, cells[:2], Shard{1, 2})
	for _, tc := range []struct {
		name string
		reps []*Report
		want string
	}{
		{"none", nil, "no reports"},
		{"same shard twice", []*Report{s0, s0}, "shard 0/2 given twice"},
		{"different n", []*Report{s0, of3}, "shard of 3, report 1 of 2"},
		{"unsharded", []*Report{s0, whole}, "holds every seed already"},
		{"other seeds", []*Report{s0, other}, "seeds 1+11"},
		{"other cells", []*Report{s0, fewer}, "not the same grid"},
	} {
		if _, err := Merge(tc.reps...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Merge(%s) = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := Merge(s0, s1); err != nil {
		t.Errorf("Merge(0/2, 1/2) = %v", err)
	}
	if s0.Cells[0].Runs != 5 {
		t.Errorf("merging changed its input: shard 0/2 now has %d runs, want 5", s0.Cells[0].Runs)
	}
}

func TestReadJSONRejectsOtherFiles(t *testing.T) {
	for _, in := range []string{`{"format":"x","cells":[]}`, `{"patterns":[]}`, `not json`} {
		if _, err := ReadJSON(strings.NewReader(in)); err == nil {
			t.Errorf("ReadJSON(%s) = nil error, want one", in)
		}
	}
}

func TestWriteTextShowsReplayAndErrors(t *testing.T) {
	rep := shardReport(t, smallGrid(t, Seeds{Start: 1, Count: 10}), Shard{})
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"PATTERN", "basic", "gc-pause", "mutex 2, no-starvation 2",
		"replay basic under gc-pause (mutex 2, no-starvation 2, progress 1): locksim run --pattern basic --scenario gc-pause --seed 2",
		"ERROR basic under gc-pause: 2 runs did not complete; seed 3: seed 3 failed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
}
