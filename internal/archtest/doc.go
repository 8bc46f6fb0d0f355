// Package archtest holds the test that keeps the module's imports
// pointing one way, as DESIGN.md draws them: locks imports neither the
// simulator, the benchmarks, the checkers nor the CLI (cmd/locksim, cli);
// model imports no Redis client; the simulator imports neither the
// benchmarks nor the CLI; and no public package imports an internal one,
// except those named in the test's shrinking list and the wirers (cli,
// the command as a library), whose exported API names no internal
// package; and a report's directory is written by report.Generate
// alone, through internal/reportdir's transaction. The package has no
// other code.
package archtest
