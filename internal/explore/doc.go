// Package explore runs the simulator over a grid of cells — pattern ×
// scenario, each with a range of seeds — on every core, and aggregates the
// runs of each cell: how many violated a claim, the lowest seed that did,
// the oracles' totals and the liveness figures.
//
//	cells, _ := explore.Grid(patterns, scenarios, explore.Seeds{Start: 1, Count: 200})
//	rep, err := explore.Run(ctx, cells, explore.Options{Parallel: 4})
//	rep.WriteText(os.Stdout)
//
// # Plan
//
// Plan is an exploration as the explore command's flags give it (the
// patterns, the scenarios, the seeds, the shard, the runs at once and the
// output file). Plan.Build checks it whole before anything runs — the
// values, the paths, each pattern and scenario named once, the lock
// settings each pattern's constructor takes — and returns the cells and
// options, or a *FlagError naming the flag at fault:
//
//	cells, opt, err := explore.Plan{Pattern: "all", Scenario: "gc-pause",
//		Seeds: explore.Seeds{Start: 1, Count: 200}, Parallel: 4}.Build()
//
// # Determinism
//
// A cell's aggregate is made only of integer sums, maxima and minima over
// its runs (the lowest violating seed, not the first to finish), and each
// run is deterministic in its seed, so the report is the same, byte for
// byte, whatever Options.Parallel is and in whatever order the runs end.
// Ratios (acquisitions per run, mean wait) are computed from the integer
// totals when the report is finished.
//
// # Shards
//
// Options.Shard i/n keeps, of every cell's seeds, those with seed % n == i
// (seeds are absolute, not positions: with Start 10 and Count 4, shard 0/2
// runs 10 and 12, shard 1/2 runs 11 and 13). The n shards of a grid
// partition its seeds, so n machines can each run one, and Merge combines
// their reports into exactly the report one unsharded run makes: the same
// bytes once written as JSON. Merge refuses reports of different grids,
// of different shard counts, or holding the same shard twice; a merge of
// only some shards says which it holds.
//
// # Provenance and counts
//
// A report records what it was made from (Report.Made): the locksim
// version and commit (internal/buildinfo), the expectations file with its
// sha256 when a gate made it (Options.Expectations), and per cell the
// sha256 of its scenario's text (a file's content; a built-in's canonical
// text for the pattern's nodes) and its seed range. Merge refuses reports
// that differ in any of it, naming the field and both values, and reports
// whose counts do not add up: a cell's runs must be exactly its seeds in
// the shards the report holds, no count of runs may exceed the runs,
// every seed it names must be one of them, and its figures must agree with
// each other: a run that broke a claim is a violating run, a first seed is
// named exactly when something was found, and the rates, means and replay
// command are those its counts give.
//
// # Faults
//
// Each cell counts, per fault of its scenario, the completed runs in which
// it fired and those in which it did not, with the reason given by the
// lowest such seed (FaultCount); the text report has a FAULT NOT FIRED
// line for every fault that missed some run, and CellResult.NeverFired
// lists those that fired in none.
// # Stopping
//
// When ctx is done, Run lets the runs in flight finish and returns ctx's
// error with the report of the runs that finished, marked Partial (done
// of total runs). Merge refuses a partial report.
//
// # Claims
//
// A run violates the claims the simulator names in sim.Result.Violated
// (mutex, safe-store, fencing, max-holders, progress: only those the
// pattern makes). Beside them each cell counts two liveness properties for
// every pattern, claimed or not: Progress, broken by a run in which no
// client held the lock for longer than the bound (sim.ProgressBound: a
// lock held after its holder was gone, a queue that serves nobody); and
// NoStarvation, broken by a run in which some client acquired nothing in
// the last stretch (sim.Liveness.Stuck). The gate can expect either of any
// pattern.
package explore
