// Package report measures every lock pattern under every built-in
// scenario of the simulator and writes the comparison a team reads before
// choosing one: Markdown and HTML, plots (PNG and SVG), a porcupine
// visualisation of a counterexample for every cell with a violation, the
// latest benchmark's throughput and latency, a decision table (per
// situation, the pattern to use and to avoid) and a "which pattern should
// I use" section whose every row and sentence comes from a rule in code
// citing the numbers, the source article's comparison table judged claim
// by claim, safety curves (Sweep: the violation rate as one fault grows)
// and the production faults (MeasureProduction: every pattern under the
// gate's scenarios of the fault kinds, triggers and workload steps no
// built-in has).
//
// # Intervals
//
// Every rate is printed with its 95% Wilson interval (Wilson, RateText);
// a comparison is called a difference only when the intervals do not
// overlap (Interval.Separated), and a clean cell of fewer seeds than it
// takes to see a violation of rate CareRate is marked (TooFewSeeds). The
// benchmark's throughput is compared only where the spread of its
// repetitions separates.
//
// # What is measured
//
// Measure runs each pattern of the catalog (correct ones and broken
// variants) under each built-in scenario with seeds 1..N (the baseline,
// steady, with its own count: it simulates 30 seconds of 5 clients), and
// aggregates per cell: the violation rate (seeds whose run broke a claim of
// the pattern / seeds) of each kind of claim apart (Cell.Kinds: safety,
// liveness, promptness, never pooled: every table, plot and grid colours
// a cell from one kind, and a kind the pattern does not claim reads "not
// claimed"), lost updates, overlaps, fence violations, and
// liveness (acquisitions per simulated second, the median over seeds of
// the p99 acquire wait, seeds with a stuck client). Patterns that issue
// fencing tokens run a second time with the tokens withheld from the store,
// which measures the lost updates the same runs would have had without
// fencing.
//
// # Rates
//
// Beside the violating seeds, each cell counts the violations of the
// pattern's claims (overlapping pairs of sections for mutex, lost updates
// for safe-store, reused tokens for fencing, sections past the limit for
// max-holders, stalls for progress, late loss signals for loss-signal)
// and gives them per hour of simulated time and per million acquisitions
// (Cell.PerSimHour, Cell.PerMillionAcquisitions). Findings of what the
// pattern does not claim are left out, so a cell without a violating
// seed has rate 0; `locksim run` and `explore` count every finding.
//
// # Production faults
//
// MeasureProduction runs the patterns under ProductionScenarios, each
// with ProductionSeeds seeds (half as many for a run longer than a
// simulated second), once (no run without tokens), keeping no history:
// the section gives replay commands rather than counterexample pages. A
// pattern that refuses a scenario's options (WAIT on a lock that cannot
// wait for replicas) is not run there, and the section says so.
//
// # Counterexamples and links
//
// A cell's counterexample page draws the first seed that broke a safety
// claim, or else loss-signal (each late signal a span on the holder's own
// row) or progress; it says "not linearizable" only where porcupine did.
// The report is a front page (the decision table, the advice, the
// article's table) and topic pages for the rest (Pages: claims, real,
// production, counterexamples, benchmark, method with the glossary).
// Headings are anchored by GitHub's slug of their text in the Markdown
// and the HTML alike (Slug), and a link names a heading by its ID
// whichever page holds it, so every in-page and cross-page link works
// on GitHub and in the HTML.
//
// Everything is deterministic: the simulator is, runs are aggregated in
// seed order whatever order the workers finish in, and the report carries
// no clock reading but the benchmark's own date. The same code, seeds and
// benchmark files give the same bytes.
//
// # Usage
//
// Generate makes a whole report into its directory: it checks the
// directory and loads the inputs before any work, runs every phase
// (Phases: the grid, the safety curves, the production faults), and
// writes the report aside and puts it in place through the directory's
// transaction (package reportdir: the manifest, the lock, the staging,
// the swap or journalled moves), so that the directory holds one report
// whatever happens.
//
//	m, err := report.Generate(ctx, report.Job{
//		Phases: report.Phases{Config: report.Config{Seeds: 20, BaselineSeeds: 2}, SweepSeeds: report.DefaultSweepSeeds, ProductionSeeds: 20},
//		Out:    "reports",
//		Inputs: func() (*report.Bench, *report.Agreement, error) {
//			b, err := report.LoadBench("reports/bench") // nil, nil when there is none
//			return b, nil, err
//		},
//		Commit: "abc1234",
//	})
//
// The parts run alone too: Measure, MeasureSweeps and MeasureProduction
// measure, and Write writes a report into a directory as it is (no
// manifest, no staging). `locksim report` is the command; `locksim
// sweep` runs one sweep on a team's own patterns and base scenario.
package report
