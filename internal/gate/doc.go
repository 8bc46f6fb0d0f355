// Package gate is locksim's CI gate: the expectations matrix, as data, and
// the check that runs it in the simulator and reports every deviation.
//
// # The matrix
//
// expectations.txt (embedded; `locksim check --print` shows it) has one
// line per pattern × built-in scenario × claims:
//
//	# pattern  scenario  verdict  claims          [seeds=N]  # why
//	basic      gc-pause  breaks   mutex                      # no fencing: a paused holder writes after expiry
//	fenced     gc-pause  holds    safe-store,fencing
//	variant basic-del of basic
//
// The scenario is a built-in or one of the gate's own, in scenarios/
// (embedded, and selectable by name like a built-in: `locksim run
// --scenario crowded-pause` works from any directory), or else a
// scenario file's path, relative to the expectations file (ParseFile) or
// to the working directory (Parse); its cells replay by the file's
// absolute path. The verdicts, over
// the cell's seeds 1..N (N is the check's --seeds, or
// the line's seeds=N):
//
//   - holds C: no run breaks claim C.
//   - breaks C: at least one run breaks C. A limitation of a correct
//     pattern under a fault it does not tolerate is written this way, so
//     the gate proves the suite can see that fault: a check that cannot
//     fail is worthless. The comment says why the pattern breaks.
//   - may C: recorded but neither run nor gated, for outcomes that are
//     rare and seed-dependent (the comment says why).
//
// Claims are those the simulator judges (mutex, safe-store, fencing,
// max-holders, progress), only those the pattern makes, and the liveness
// properties explore counts for every cell, which any pattern may be
// expected to keep or lose: progress (the lock is never free for longer
// than sim.ProgressBound) and no-starvation (no client acquired nothing in
// the last stretch of the run). `variant V of P` names the correct pattern P that the
// broken variant V imitates.
//
// Parse rejects, naming the line: unknown patterns, scenarios, verdicts
// or claims, a claim a pattern does not make, a claim expected twice of
// one cell, one cell given two seed budgets, a variant that is not broken
// or is declared twice.
//
// # The check
//
// Check runs every cell that has a holds or breaks line (explore.Run, on
// every core) and reports, as deviations: a claim not as its line says; a
// cell whose runs did not complete; a claim of a correct pattern under a
// built-in scenario that no line classifies (so that a new pattern or
// fault is classified before the gate passes again); a broken variant of
// the registry with no variant line (of a partial matrix: only those it
// names), or not caught — caught meaning that
// under some scenario S, for some claim C, the lines `V S breaks C` and
// `P S holds C` are both seen to be true; and a fault of a cell's
// scenario (built-in or the gate's own) that fired in none of the cell's
// runs. That last rule is "in at least one run", not "in every run": a
// fault on a workload point may miss a seed whose workload went another
// way, and the cell still tests it in the others; a fault that never
// fires is dead, and the cell's verdicts say nothing about it. Each
// deviation carries what was
// expected, what was seen, and a replay command (the lowest seed that
// broke the claim, or the exploration of the cell when none did).
//
// # Partial matrices
//
// A user's file (ParseFile), or any selection of a matrix (Select: some
// patterns, some scenarios), is Partial: the coverage rule does not
// apply, and only the variants it names must be caught. Its unlisted
// claims — each claim of each pattern it names, under each scenario it
// names, that no line mentions — hold (a line Select adds, line 0), or,
// with UnlistedSkip, are not checked. So a CI job gates "basic and fenced,
// with our settings, under our scenarios" in a few lines:
//
//	basic  ci/pause.txt    breaks mutex  # our pause outlasts our TTL
//	fenced ci/pause.txt    holds  safe-store,fencing
//	fenced ci/restart.txt  breaks fencing  # no persistence: the counter is lost
//
// Every cell's seeds start at 1, and a run is deterministic in its seed,
// so a check gives the same result on every machine and at any
// parallelism.
//
// A check stopped by its context returns a Partial result beside the
// context's error: the lines whose cells ran every seed are judged, the
// coverage and the variants are not, and OK is false: it is no verdict.
package gate
