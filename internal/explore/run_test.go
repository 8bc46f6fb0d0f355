package explore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
)

// smallGrid is a few cheap cells of the real simulator: basic breaks its
// claim under gc-pause, fenced keeps its claims there.
func smallGrid(t *testing.T, seeds Seeds) []Cell {
	t.Helper()
	ps, err := ResolvePatterns("basic,fenced")
	if err != nil {
		t.Fatal(err)
	}
	scs, err := ResolveScenarios("gc-pause,partition")
	if err != nil {
		t.Fatal(err)
	}
	cells, err := Grid(ps, scs, seeds)
	if err != nil {
		t.Fatal(err)
	}
	return cells
}

func jsonOf(t *testing.T, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRunSameWhateverParallel(t *testing.T) {
	cells := smallGrid(t, Seeds{Start: 1, Count: 8})
	var outs []string
	for _, par := range []int{1, 3} {
		rep, err := Run(context.Background(), cells, Options{Parallel: par})
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, jsonOf(t, rep))
	}
	if diff := cmp.Diff(outs[0], outs[1]); diff != "" {
		t.Fatalf("report with --parallel 1 and 3 differ (-1 +3):\n%s", diff)
	}
	rep, _ := ReadJSON(strings.NewReader(outs[0]))
	c := rep.Cell("basic", "gc-pause")
	if c == nil || c.Runs != 8 || c.ViolatingRuns == 0 || c.Broke["mutex"].Runs != c.ViolatingRuns {
		t.Fatalf("basic under gc-pause = %+v, want 8 runs, some breaking mutex", c)
	}
	if want := ReplayCommand("basic", "gc-pause", *c.FirstViolated); c.Replay != want {
		t.Errorf("replay = %q, want %q", c.Replay, want)
	}
	if f := rep.Cell("fenced", "gc-pause"); f == nil || f.Runs != 8 || f.Acquisitions == 0 {
		t.Errorf("fenced under gc-pause = %+v, want 8 runs with acquisitions", f)
	}
}

func TestShardsMergeToUnsharded(t *testing.T) {
	cells := smallGrid(t, Seeds{Start: 5, Count: 7})
	whole, err := Run(context.Background(), cells, Options{Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	var shards []*Report
	for _, i := range []int{2, 0, 1} { // any order
		rep, err := Run(context.Background(), cells, Options{Parallel: 2, Shard: Shard{I: i, N: 3}})
		if err != nil {
			t.Fatal(err)
		}
		// Merge reads what explore --json wrote.
		back, err := ReadJSON(strings.NewReader(jsonOf(t, rep)))
		if err != nil {
			t.Fatal(err)
		}
		shards = append(shards, back)
	}
	merged, err := Merge(shards...)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(jsonOf(t, whole), jsonOf(t, merged)); diff != "" {
		t.Fatalf("merged shards differ from one unsharded run (-whole +merged):\n%s", diff)
	}
	part, err := Merge(shards[0], shards[1])
	if err != nil {
		t.Fatal(err)
	}
	if part.Shard == nil || fmt.Sprint(part.Shard.Have) != "[0 2]" || part.Cells[0].Runs >= whole.Cells[0].Runs {
		t.Errorf("merge of shards 2 and 0 = shard %+v, %d runs; want shards [0 2] and fewer runs than %d",
			part.Shard, part.Cells[0].Runs, whole.Cells[0].Runs)
	}
}

// fakeRun returns a result whose outcome is a function of the seed.
func fakeRun(cfg sim.Config) (*sim.Result, error) {
	if cfg.Seed%5 == 3 {
		return nil, fmt.Errorf("seed %d failed", cfg.Seed)
	}
	r := &sim.Result{Claims: []string{"mutex"}, Violated: []string{}}
	r.Liveness.Acquisitions = int(cfg.Seed % 4)
	if cfg.Seed%7 == 2 {
		r.Violated = []string{"mutex"}
		r.Safety.Overlaps = 1
	}
	if cfg.Seed%6 == 1 {
		r.Liveness.Stuck = []string{"c1"}
	}
	if cfg.Seed%11 == 4 {
		r.Liveness.Stalls = 1
	}
	return r, nil
}

func TestRunCountsLowestSeeds(t *testing.T) {
	cells := smallGrid(t, Seeds{Start: 1, Count: 30})[:1]
	rep, err := Run(context.Background(), cells, Options{Parallel: 4, Run: fakeRun})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Cells[0]
	seed := func(s uint64) *uint64 { return &s }
	// seeds 1..30: errors at 3,8,...,28 (6); mutex at 2,9,16,30 (23 errs);
	// stuck at 1,7,19,25 (13 errs); stalled at 4,15,26.
	want := Tally{Runs: 30, ViolatingRuns: 4, FirstViolated: seed(2),
		Broke: map[string]*Found{"mutex": {Runs: 4, FirstSeed: seed(2)}, NoStarvation: {Runs: 4, FirstSeed: seed(1)},
			Progress: {Runs: 3, FirstSeed: seed(4)}, "loss-signal": {}},
		Overlaps: 4, ClaimViolations: 4, Unclaimed: map[string]int64{Progress: 3}, // fakeRun's pattern claims no progress
		StuckClients: 4, Errors: 6, FirstErrorSeed: seed(3), FirstError: "seed 3 failed",
		Faults: []FaultCount{{Fault: "pause c1 on=write for=150ms"}}} // fakeRun reports no firing
	for s := uint64(1); s <= 30; s++ {
		if s%5 != 3 {
			want.Acquisitions += int64(s % 4)
		}
	}
	if diff := cmp.Diff(want, c.Tally); diff != "" {
		t.Errorf("tally (-want +got):\n%s", diff)
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	cells := smallGrid(t, Seeds{Start: 1, Count: 1000})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int64
	rep, err := Run(ctx, cells, Options{Parallel: 2, Run: func(cfg sim.Config) (*sim.Result, error) {
		if calls.Add(1) == 10 {
			cancel()
		}
		return fakeRun(cfg)
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after cancel = %v, want context.Canceled", err)
	}
	n := calls.Load()
	if n > 20 {
		t.Errorf("%d runs after cancelling at the 10th, want it to stop", n)
	}
	if rep == nil || rep.Partial == nil {
		t.Fatalf("Run after cancel returned report %+v, want the finished runs marked partial", rep)
	}
	runs := 0
	for _, c := range rep.Cells {
		runs += c.Runs
	}
	if runs != int(n) || rep.Partial.Done != int(n) || rep.Partial.Total != 1000*len(cells) {
		t.Errorf("partial report: %d runs in cells, partial %+v; want %d done of %d", runs, *rep.Partial, n, 1000*len(cells))
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil || !strings.HasPrefix(text.String(), fmt.Sprintf("PARTIAL: stopped after %d of %d runs", n, 1000*len(cells))) {
		t.Errorf("text of a partial report (%v):\n%s", err, text.String())
	}
	if _, err := Merge(rep); err == nil || !strings.Contains(err.Error(), "partial") {
		t.Errorf("Merge of a partial report = %v, want it refused as partial", err)
	}
}

func TestGridRejectsBadCell(t *testing.T) {
	p, err := pattern.Lookup("basic")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Grid([]pattern.Pattern{p}, Builtins(), Seeds{Start: 1, Count: 0}); err == nil || !strings.Contains(err.Error(), "seeds") {
		t.Errorf("Grid with 0 seeds: %v, want an error naming seeds", err)
	}
}
