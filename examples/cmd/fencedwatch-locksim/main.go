// Command fencedwatch-locksim is the locksim command with the fencedwatch
// lock and its broken twin registered beside the built-in patterns: every
// command (list, run, explore, check --expect, sweep, report, real,
// advise ...) selects them by name.
//
// Run it from examples/, the module's root:
//
//	go run ./cmd/fencedwatch-locksim run --pattern fencedwatch --scenario gc-pause --seed 1
//	go run ./cmd/fencedwatch-locksim check --expect fencedwatch/testdata/expect.txt
//	go run ./cmd/fencedwatch-locksim report --patterns fencedwatch,fenced
package main

import (
	"github.com/locksim/locksim/cli"
	"github.com/locksim/locksim/examples/fencedwatch"
)

func main() { cli.Main(fencedwatch.Pattern, fencedwatch.Broken) }
