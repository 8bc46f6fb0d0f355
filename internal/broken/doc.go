// Package broken holds the deliberately broken lock variants: one per
// pitfall named in the seed articles and in DESIGN.md, and one per bug
// class lock libraries have shipped, each differing from the correct
// pattern it imitates by that one mistake. A variant is its pattern's own
// registered constructor given Options with one step of the pattern
// replaced (a pitfall.Pitfall, set by pitfall.With: a release script,
// a fenced acquisition script, the renewal period, the TTL as the scripts
// get it, the validity, per-node fences, a renewal that outlives the
// release) or one option changed (the shared-token variants' Rand), so it
// refuses what its pattern refuses, retries as it does and runs its code
// everywhere but at the pitfall. The table of variants (register.go) names
// each one's pattern and step; built_test.go checks every catalog entry
// against it, and config_test.go that no file here declares the machinery
// of package locks again. redlock-novalidity is the one variant that
// changes two steps: the validity, and the seed Redlock's plain SET NX per
// node, without which no fault reaches its missing check (see its
// comment).
//
// The two seed ports, fair-clock-queue (SeedFair) and rwlock-shared-count
// (SeedRW), are not a pattern plus one mistake but the seed articles' own
// implementation, ported over the seams: the seed's fair lock is a ZSET
// queue scored by the clients' wall clocks with an enqueue not atomic with
// its expiry, its read-write lock one ownerless reader counter beside a
// writer key; the correct Fair and RWLock share neither data structure nor
// scripts with them, so no step of theirs could be replaced to give the
// seed's code. They keep their own acquisition (configured by lockkit.Config
// all the same) and show every mistake of the article at once.
//
// They exist only to prove that locksim's checks can fail: the gate runs
// each of them against the claims of the correct pattern it imitates and
// must see those claims violated. The package is internal so that no user
// imports one by accident. Variants lists them (register.go from the
// table, the seed ports in their files), and Extend adds them to a
// pattern.Catalog, where its users select them by name: the CLI and the
// tests call Extend(pattern.Default), and the gate, exploration and the
// report use Catalog(). Importing the package registers nothing.
//
//	name                     pattern    step             pitfall
//	basic-del                basic      ReleaseScript    release by plain DEL, no owner check
//	reentrant-nocount        reentrant  ReleaseScript    every release deletes the key, whatever the count
//	watchdog-renew-ttl       watchdog   RenewEvery       renewal interval equal to the TTL
//	redlock-novalidity       redlock    Validity, SetNX  quorum taken without the validity check
//	service-seconds          service    TTLArg           TTL truncated to whole seconds (expiry 0)
//	fenced-volatile          fenced     FencedAcquire…   fence counter expires with the lock
//	redlock-fenced-pernode   redlock    PerNodeFence     fencing tokens from per-node counters
//	basic-shared-token       basic      Options.Rand     one owner token for every client
//	redlock-shared-token     redlock    Options.Rand     one owner token for every client
//	watchdog-zombie-renewal  watchdog   RenewAfter…      the renewal outlives the release
//	watchdog-late-done       watchdog   Validity         no validity: loss learnt from renewals only
//	fair-clock-queue         (own code)                  the seed's fair lock (SeedFair)
//	rwlock-shared-count      (own code)                  the seed's read-write lock (SeedRW)
//
// Each variant's doc comment describes the failure it shows. The tests
// prove every one caught: scenarios_test.go runs, for each seed pitfall and
// shared token, a deterministic scenario on miniredis with time moved by
// the test that shows the violation, and the same scenario on the correct
// pattern, which shows none; seedfair_test.go and seedrw_test.go do the
// same for the seed's fair and read-write locks, and package sim for the
// two watchdog bugs that need its scheduler.
package broken
