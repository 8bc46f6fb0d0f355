// Package locksimtest gates a lock pattern — yours or one of locksim's —
// from go test: one call runs it in the simulator under every built-in
// scenario and your scenario files, for N seeds each, checks every claim
// the pattern makes, and fails the test on each deviation with the seed,
// the claim, a counterexample and a replay command.
//
//	func TestMyLock(t *testing.T) {
//		locksimtest.Run(t, mylock.Pattern, locksimtest.Options{
//			Scenarios: []string{"testdata/long-pause.txt"},
//			Expect: []string{
//				"node-clock-jump breaks mutex  # trusts the node's clock, as every single-node lock does",
//				"failover        may    mutex  # asynchronous replication loses the key, seed-dependent",
//			},
//		})
//		locksimtest.Lint(t, ".")
//	}
//
// # Expectations
//
// A scenario × claim that no line mentions is expected to hold: no seed
// breaks it. Lines, given in code (Options.Expect) or in a file
// (Options.ExpectFile), use the syntax of locksim check's matrix, the
// pattern field optional:
//
//	[pattern] scenario holds|breaks|may claim[,claim] [seeds=N]  # why
//
// breaks C expects some seed to break C (a limitation the harness proves
// it can see); may C is not checked; seeds=N gives the scenario its own
// seed budget. Claims are the pattern's (mutex, safe-store, fencing,
// max-holders, progress), and the liveness properties any pattern may be
// held to: progress (the lock is never free past sim.ProgressBound: no
// stall) and no-starvation (no client stuck), each checked, when the
// pattern does not claim it, only where a line names it. Lines about other patterns, and variant lines, are
// skipped: one file can serve several patterns and locksim check --expect.
//
// # Failures
//
// A claim expected to hold that some seed breaks fails the test with the
// lowest such seed; the harness reruns it and writes, in Options.Dir
// (default testdata/locksim), PATTERN--SCENARIO--seed-N.txt (the scenario
// inline, headed by what broke and the replay commands: it does not depend
// on the repository's layout), .html (porcupine's page of the run's
// history, faults on the timeline) and .trace (the readable trace). The
// replay command reruns that seed alone:
//
//	go test -count=1 -run '^TestMyLock$' -locksim.scenario=gc-pause -locksim.seed=3
//
// A run that does not complete — the pattern panics, returns a nil lease
// with a nil error, or blocks outside the seams (a plain channel, a
// WaitGroup, time.Sleep: the simulator notices after Options.StallAfter of
// real time and names the goroutine) — fails the test naming the pattern,
// the scenario, the seed and the cause. It does not hang the test or crash
// it, with one exception that no simulator can catch: a bare go statement
// whose goroutine calls the Clock. Lint finds those (and every other
// escape) in the source.
//
// # Flags
//
// -locksim.seeds N overrides Options.Seeds (a line's seeds=N keeps its
// own); -locksim.scenario NAME and -locksim.seed N run one scenario, one
// seed (a replay; breaks lines are then not checked, one seed proving
// nothing about them).
package locksimtest
