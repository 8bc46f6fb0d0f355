// Command locksim runs Redis lock patterns: a demo, simulated experiments
// with injected faults, a correctness gate for CI, benchmarks and reports.
//
// It is package cli's Main over the built-in patterns; a module with
// patterns of its own builds the same command with them registered (see
// github.com/locksim/locksim/cli).
package main

import "github.com/locksim/locksim/cli"

func main() { cli.Main() }
