// Package broken holds the deliberately broken lock variants: one per
// pitfall named in the seed articles and in DESIGN.md, each implementing
// locks.Locker over the same seams as the correct patterns (locks.Redis,
// clock.Clock, locks.Options) and differing from the pattern it imitates by
// that one mistake. Each is configured by locks.Config, the Options
// resolved by package locks itself (defaults, checks, validity, the retry
// loop), so a variant refuses what its pattern refuses and retries as it
// does (config_test.go shows it for every variant); the two shared-token
// variants are their pattern's own constructor with one option changed.
//
// They exist only to prove that locksim's checks can fail: the gate runs
// each of them against the claims of the correct pattern it imitates and
// must see those claims violated. The package is internal so that no user
// imports one by accident; each registers itself in the public pattern
// registry (in register.go, or in the file that builds it), where
// importers of this package select it by name.
//
//	name                    pitfall
//	basic-del               release by plain DEL, no owner check
//	reentrant-nocount       re-entry allowed, but entries are not counted
//	watchdog-renew-ttl      renewal interval equal to the TTL
//	redlock-novalidity      quorum taken without the validity check
//	service-seconds         TTL truncated to whole seconds (EXPIRE 0)
//	fenced-volatile         fence counter expires with the lock
//	redlock-fenced-pernode  fencing tokens from per-node counters
//	fair-clock-queue        the seed's fair lock (SeedFair)
//	rwlock-shared-count     the seed's read-write lock (SeedRW)
//
// Each variant's doc comment describes the failure it shows. The tests
// prove every one caught: scenarios_test.go runs, for each of the first
// seven, a deterministic scenario on miniredis with time moved by the test
// that shows the violation, and the same scenario on the correct pattern,
// which shows none; seedfair_test.go and seedrw_test.go do the same for the
// seed's fair and read-write locks.
package broken
