package fencedwatch

import (
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// Pattern is the lock as locksim selects it: its claims are a fenced
// lock's (a store that checks tokens loses no update; tokens strictly
// increase), not a mutex's — a paused holder still believes it holds.
// Neither it nor Broken registers itself: sim.Run and locksimtest take
// the values, and cli.Main(Pattern, Broken) registers both beside
// locksim's own patterns for every command (cmd/fencedwatch-locksim).
var Pattern = pattern.Pattern{
	Name:    "fencedwatch",
	Summary: "fenced SET NX PX + INCR in one script, renewed by a watchdog loop on the Clock",
	Nodes:   1,
	Claims:  pattern.Claims{SafeStore: true, Fencing: true},
	New: pattern.Single(func(r locks.Redis, key string, o locks.Options) (locks.Locker, error) {
		return New(r, key, o)
	}),
}

// Broken is the deliberately broken twin, kept to prove the gate fails on
// it: it makes the same claims and must be seen breaking them.
var Broken = pattern.Pattern{
	Name:    "fencedwatch-clockfence",
	Summary: "fencedwatch with the fencing token taken from the client's wall clock",
	Nodes:   1,
	Claims:  pattern.Claims{SafeStore: true, Fencing: true},
	Broken:  true,
	Pitfall: "fencing tokens from client clocks: a clock that runs ahead issues tokens later holders cannot beat",
	New: pattern.Single(func(r locks.Redis, key string, o locks.Options) (locks.Locker, error) {
		return NewClockFenced(r, key, o)
	}),
}
