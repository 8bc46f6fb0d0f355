// Package cli is the locksim command as a library: every command of
// locksim (list, run, explore, check --expect, sweep, report, real,
// advise and the rest), over the built-in patterns and any of your own.
//
// A module with locks of its own gets the whole command with a main of a
// few lines:
//
//	package main
//
//	import (
//		"github.com/locksim/locksim/cli"
//		"example.com/mylock"
//	)
//
//	func main() { cli.Main(mylock.Pattern, mylock.Broken) }
//
// Main registers the patterns in the global registry of package pattern
// before any command runs, so every command lists, runs, checks and
// reports them by name beside the built-ins (locksim run --pattern
// mylock, locksim report --patterns mylock,fenced). Real mode's client
// processes are the same binary, so they know the patterns too.
//
// The command locksim itself is cli.Main with no patterns
// (github.com/locksim/locksim/cmd/locksim).
package cli
