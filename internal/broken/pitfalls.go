package broken

import (
	"time"

	"github.com/locksim/locksim/internal/pitfall"
	"github.com/locksim/locksim/pattern"
)

// The seed articles' pitfalls, each built on the pattern it breaks.

// basicDel is the pitfall "basic-del": a Basic lock released by a plain
// DEL with no owner check (its ReleaseScript).
//
// When a holder outlives its TTL — a pause, a slow section — the key
// expires and another client takes it; the first holder's release then
// deletes the second holder's key, so a third client acquires while the
// second still holds a valid lease: two holders. The correct Basic's
// owner-checked release returns ErrNotHeld instead and leaves the key.
var basicDel = variant{name: "basic-del", of: "basic", nodes: 1, claims: pattern.Claims{Mutex: true},
	steps: []string{"ReleaseScript"}, pitfall: pitfall.Pitfall{ReleaseScript: delSource},
	text:    "release by plain DEL with no owner check: deletes the next holder's lock after yours expired",
	summary: "basic SET NX PX, released by DEL"}

// reentrantNoCount is the pitfall "reentrant-nocount": re-entry whose
// count the release does not honour. The owner may take the lock again
// while holding it and the hash counts the entries, but every release
// (its ReleaseScript) is an owner-checked DEL of the whole key.
//
// So the first release — the innermost section's — frees the lock while
// the outer section still runs and still holds a valid lease (the reply is
// the count the client expects); another client acquires at once and two
// holders run side by side. The correct Reentrant frees the lock at count
// zero.
//
// The seed article shows the other face of the same mistake: a nested
// SET NX with no re-entry at all, so the owner deadlocks on its own lock.
// That face is a liveness failure (the Basic lock used re-entrantly); this
// variant keeps the re-entry the code path expects and shows the safety
// failure, which the Mutex claim of Reentrant can catch.
var reentrantNoCount = variant{name: "reentrant-nocount", of: "reentrant", nodes: 1, claims: pattern.Claims{Mutex: true},
	steps: []string{"ReleaseScript"}, pitfall: pitfall.Pitfall{ReleaseScript: noCountReleaseSource},
	text:    "re-entry without a count the release honours: the inner release frees the lock while the outer section still runs",
	summary: "reentrant hash {owner: count}, every release an owner-checked DEL of the key"}

// watchdogRenewTTL is the pitfall "watchdog-renew-ttl": a Watchdog whose
// renewal interval equals the TTL (the seed's renewal_interval=30 with
// timeout=30) instead of TTL/3 (its RenewEvery).
//
// The renewal is due at the very instant the key expires, so the lock
// lapses between renewals: the holder's validity has run out before its
// first renewal is due, and another client takes the lock while the holder
// has not released it and still means to hold it. The correct Watchdog
// renews every TTL/3 and keeps the key alive throughout.
var watchdogRenewTTL = variant{name: "watchdog-renew-ttl", of: "watchdog", nodes: 1, claims: pattern.Claims{Mutex: true},
	steps: []string{"RenewEvery"}, pitfall: pitfall.Pitfall{RenewEvery: func(ttl time.Duration) time.Duration { return ttl }},
	text:    "renewal interval equal to the TTL: the lock lapses between renewals",
	summary: "SET NX PX renewed every TTL instead of TTL/3"}

// serviceSeconds is the pitfall "service-seconds": the lock service (a
// reentrant hash {owner: count}, a watchdog, retries) sending its TTL as
// int(timeout.Seconds()), as the seed's does, to its scripts (its TTLArg).
// The TTL is truncated to whole seconds, so a sub-second TTL becomes an
// expiry of 0, which deletes the key at once: the client holds a lease it
// believes valid for its TTL while the key does not exist, and any other
// client acquires. A TTL of 1.5s lives 1s. The correct Service sends the
// TTL's milliseconds.
var serviceSeconds = variant{name: "service-seconds", of: "service", nodes: 1, claims: pattern.Claims{Mutex: true},
	steps: []string{"TTLArg"}, pitfall: pitfall.Pitfall{TTLArg: wholeSeconds},
	text:    "TTL sent as int(timeout.Seconds()): a sub-second TTL becomes an expiry of 0, which deletes the key at once",
	summary: "the lock service: reentrant hash + watchdog, its TTL truncated to whole seconds"}

// wholeSeconds is the seed service's TTL, int(timeout.Seconds()), in the
// milliseconds the scripts take.
func wholeSeconds(ttl time.Duration) int64 { return int64(int(ttl.Seconds())) * 1000 }

// fencedVolatile is the pitfall "fenced-volatile": a Fenced lock whose
// fence counter is lost with the lock. Its acquisition script
// (FencedAcquireScript) gives the counter the lock's TTL, so once nobody
// has held the lock for a TTL the counter is gone and the next holder is
// issued token 1 again — the same happens to the correct Fenced's counter
// when a node restarts without persistence, which is the seed's warning.
// Tokens repeat, so a store that accepts tokens ≥ the highest it has seen
// takes a stale holder's write after a newer holder's: a lost update. The
// correct Fenced never expires its counter, and its tokens strictly
// increase.
var fencedVolatile = variant{name: "fenced-volatile", of: "fenced", nodes: 1, claims: pattern.Claims{SafeStore: true, Fencing: true},
	steps: []string{"FencedAcquireScript"}, pitfall: pitfall.Pitfall{FencedAcquireScript: volatileFenceSource},
	text:    "fence counter lost with the lock (it has the lock's TTL): tokens restart at 1 and repeat",
	summary: "SET NX PX + INCR of a fence counter that expires"}

// redlockNoValidity is the pitfall "redlock-novalidity": a Redlock that
// takes the lock as soon as a majority of nodes granted it, without
// checking validity = TTL − elapsed − drift (the seed's
// `if acquired_count >= quorum: return True`), and that hands the caller a
// lease valid for the full TTL from the moment the quorum is counted (its
// Validity).
//
// When the requests were slow — a slow node, a pause, a clock that moved —
// the keys on the first nodes have already expired, or expire long before
// the lease says; a majority is free again while the holder's lease is
// still valid, and a second client acquires: two holders. The correct
// Redlock returns ErrQuorum (Expired) when no validity is left and
// measures the validity from the moment the requests were sent.
//
// It takes each node as the seed's Redlock does, by a plain SET NX PX
// (NodeSetNX), not by the pattern's script: a grant is then one round
// trip, so a client paused as the grants arrive holds them when it
// resumes (paused-grant). With the script, a node's first request is
// answered NOSCRIPT and its grant is asked for again only after the pause,
// too late for the node timeout; the validity check would never be
// reached.
var redlockNoValidity = variant{name: "redlock-novalidity", of: "redlock", nodes: 5, claims: pattern.Claims{Mutex: true},
	steps:   []string{"Validity", "NodeSetNX"},
	pitfall: pitfall.Pitfall{Validity: func(ttl, _ time.Duration) time.Duration { return ttl }, NodeSetNX: true},
	text:    "Redlock without the validity check: takes the quorum however late, lease valid for the full TTL",
	summary: "quorum of N nodes, no validity = TTL - elapsed - drift"}

// redlockFencedPerNode is the pitfall "redlock-fenced-pernode": a Redlock
// that issues fencing tokens by running the fenced acquisition (SET NX PX
// + INCR of a never-expiring counter) on every node and giving the lease
// the largest counter of the quorum (its PerNodeFence).
//
// Each node counts only the acquisitions it took part in, and two quorums
// share only some nodes, so the largest counter of a later quorum can equal
// or fall below an earlier token: with nodes down in turn, {0,1,2} issues
// 1, {2,3,4} issues 2 and {0,1,3} issues 2 again. Fencing tokens are not
// monotonic across quorums, so a checking store accepts a stale holder's
// write. The correct Fenced draws every token from one counter; the
// correct Redlock issues no tokens at all.
var redlockFencedPerNode = variant{name: "redlock-fenced-pernode", of: "redlock", nodes: 5,
	claims: pattern.Claims{Mutex: true, SafeStore: true, Fencing: true},
	steps:  []string{"PerNodeFence"}, pitfall: pitfall.Pitfall{PerNodeFence: true},
	text:    "fencing tokens from per-node INCR counters: the largest counter of a quorum is not monotonic across quorums",
	summary: "Redlock running the fenced acquire script on every node, Fence = max of the quorum's counters"}
