package explore

import (
	"context"
	"fmt"
	"sort"

	"github.com/locksim/locksim/sim"
)

// Options tune Run.
type Options struct {
	// Parallel is how many runs go at once (default GOMAXPROCS).
	Parallel int
	// Shard restricts every cell to the seeds with seed % N == I.
	Shard Shard
	// Progress, if set, is called after each run with the runs done and
	// the total, always from the goroutine that called Run.
	Progress func(done, total int)
	// Expectations, if set, is the expectations file the runs are made
	// for; the report records it.
	Expectations *File
	// Run runs one simulation (default sim.Run); tests replace it.
	Run func(sim.Config) (*sim.Result, error)
}

// job is one run: the cell's index and the seed.
type job struct {
	cell int
	seed uint64
}

type done struct {
	cell  int
	tally Tally
}

// jobs enumerates the (cell, seed) runs of a plan without storing them.
type jobs struct {
	cells []Cell
	shard Shard
	ends  []int // ends[i]: jobs in cells 0..i
}

func newJobs(cells []Cell, sh Shard) jobs {
	j := jobs{cells: cells, shard: sh, ends: make([]int, len(cells))}
	total := 0
	for i, c := range cells {
		_, n := sh.span(c.Seeds)
		total += n
		j.ends[i] = total
	}
	return j
}

func (j jobs) total() int {
	if len(j.ends) == 0 {
		return 0
	}
	return j.ends[len(j.ends)-1]
}

func (j jobs) at(k int) job {
	i := sort.SearchInts(j.ends, k+1)
	start := 0
	if i > 0 {
		start = j.ends[i-1]
	}
	return job{cell: i, seed: j.shard.seed(j.cells[i].Seeds, k-start)}
}

// Run runs every cell's seeds (of Options.Shard) and returns the report.
// It stops early when ctx is done, returning ctx's error and, beside it,
// the report of the runs that finished, marked Partial; every goroutine it
// started has ended when it returns.
func Run(ctx context.Context, cells []Cell, opt Options) (*Report, error) {
	if err := opt.Shard.Validate(); err != nil {
		return nil, fmt.Errorf("explore: shard %s: %w", opt.Shard, err)
	}
	runOne := opt.Run
	if runOne == nil {
		runOne = sim.Run
	}
	rep := newReport(cells, opt.Shard, thisBuild(opt.Expectations))
	js := newJobs(cells, opt.Shard)
	n := 0
	Pool(ctx, js.total(), opt.Parallel, func(k int) done { return work(js, k, runOne) }, func(_ int, d done) {
		rep.Cells[d.cell].Tally.Add(d.tally)
		n++
		if opt.Progress != nil {
			opt.Progress(n, js.total())
		}
	})
	rep.finish()
	if err := ctx.Err(); err != nil && n < js.total() {
		rep.Partial = &Partial{Done: n, Total: js.total()}
		return rep, fmt.Errorf("explore: stopped after %d of %d runs: %w", n, js.total(), err)
	}
	return rep, nil
}

// work runs job k of js and tallies it.
func work(js jobs, k int, runOne func(sim.Config) (*sim.Result, error)) done {
	j := js.at(k)
	c := js.cells[j.cell]
	res, err := runOne(sim.Config{Pattern: c.Pattern, Scenario: c.resolved, Seed: j.seed})
	return done{cell: j.cell, tally: one(ClaimNames(c.Pattern.Claims), j.seed, res, err)}
}
