package locks

import (
	"embed"
	"fmt"
	"maps"

	"github.com/redis/go-redis/v9"
)

// scriptFiles are the Lua sources of scripts/: one file per script, plus
// the libraries (lib_*.lua) some of them run with.
//
//go:embed scripts/*.lua
var scriptFiles embed.FS

// scriptSpec is one row of scriptTable: a script's name (its file is
// scripts/<name>.lua) and the libraries prepended to it, in order.
type scriptSpec struct {
	name string
	libs []string
}

// The libraries. lib_members.lua holds the helpers of the scripts that keep
// a set of expiring members (queued waiters, readers, permits): each member
// has its own key, prefix .. token, with a PX TTL, and a member whose key
// has expired is pruned before any decision. Expiry therefore follows the
// server's key TTLs only (no TIME, no client clock). Member keys are
// derived inside the scripts from a prefix that shares the lock's hash tag,
// so on Redis Cluster they live in the lock's slot. lib_wake.lua pushes the
// wake-up of the queue's head (see wake.go).
var (
	withMembers = []string{"lib_members"}
	withWake    = []string{"lib_members", "lib_wake"}
	// lib_type.lua refuses a key of another type than a string where a
	// script reads a string key's presence as "held".
	withTyped = []string{"lib_members", "lib_type"}
)

// scriptTable is every script the patterns run. Scripts, the *redis.Script
// values below and the simulator's copy all derive from it.
var scriptTable = []scriptSpec{
	{"release", nil},
	{"extend", nil},
	{"reentrant_acquire", nil},
	{"reentrant_release", nil},
	{"reentrant_extend", nil},
	{"fenced_acquire", nil},
	{"probe", nil},
	{"reentrant_fenced_acquire", nil},
	{"token_acquire", nil},
	{"redlock_extend", nil},
	{"redlock_acquire", nil},
	{"fair_acquire", withTyped},
	{"fair_leave", withWake},
	{"fair_release", withWake},
	{"rw_rlock", withTyped},
	{"rw_lock", withTyped},
	{"rw_wleave", nil},
	{"rw_writer_read", withMembers},
	{"member_release", nil},
	{"member_extend", withMembers},
	{"sem_acquire", withMembers},
	{"sem_resize", nil},
	{"sem_available", nil},
	{"inspect", nil},
	{"ttl", nil},
	{"reentrant_ttl", nil},
	{"member_ttl", nil},
	{"multi_acquire", nil},
	{"multi_release", nil},
	{"multi_extend", nil},
	{"multi_ttl", nil},
	{"force_release", nil},
	{"adopt", nil},
}

// scriptSources maps each script of scriptTable to its full source, its
// libraries first.
var scriptSources = func() map[string]string {
	out := make(map[string]string, len(scriptTable))
	for _, s := range scriptTable {
		var src string
		for _, lib := range s.libs {
			src += scriptFile(lib)
		}
		out[s.name] = src + scriptFile(s.name)
	}
	return out
}()

// scriptFile reads scripts/<name>.lua; the files are embedded, so a missing
// one is a build mistake.
func scriptFile(name string) string {
	b, err := scriptFiles.ReadFile("scripts/" + name + ".lua")
	if err != nil {
		panic(fmt.Sprintf("locks: script %q: %v", name, err))
	}
	return string(b)
}

// script is the *redis.Script of the named row of scriptTable, loaded once
// per process and run by SHA with a fallback to EVAL (redis.Script.Run).
func script(name string) *redis.Script {
	src, ok := scriptSources[name]
	if !ok {
		panic(fmt.Sprintf("locks: script %q is not in scriptTable", name))
	}
	return redis.NewScript(src)
}

// The scripts the patterns run.
var (
	releaseScript          = script("release")
	extendScript           = script("extend")
	reentrantAcquireScript = script("reentrant_acquire")
	reentrantReleaseScript = script("reentrant_release")
	reentrantExtendScript  = script("reentrant_extend")
	fencedAcquireScript    = script("fenced_acquire")
	probeScript            = script("probe")
	// redlockAcquireScript is Redlock's per-node acquisition: SET NX PX in a
	// script, so that a node where the user may not run scripts, or where the
	// lock key has another type, fails the attempt with a permanent error in
	// the same round trip instead of granting a lock it cannot release there.
	redlockAcquireScript         = script("redlock_acquire")
	reentrantFencedAcquireScript = script("reentrant_fenced_acquire")
	tokenAcquireScript           = script("token_acquire")
	redlockExtendScript          = script("redlock_extend")
	fairAcquireScript            = script("fair_acquire")
	fairLeaveScript              = script("fair_leave")
	fairReleaseScript            = script("fair_release")
	rwRLockScript                = script("rw_rlock")
	rwLockScript                 = script("rw_lock")
	rwWLeaveScript               = script("rw_wleave")
	rwWriterReadScript           = script("rw_writer_read")
	adoptScript                  = script("adopt")
	memberReleaseScript          = script("member_release")
	memberExtendScript           = script("member_extend")
	semAcquireScript             = script("sem_acquire")
	semResizeScript              = script("sem_resize")
	semAvailableScript           = script("sem_available")
	inspectScript                = script("inspect")
	ttlScript                    = script("ttl")
	reentrantTTLScript           = script("reentrant_ttl")
	memberTTLScript              = script("member_ttl")
	multiAcquireScript           = script("multi_acquire")
	multiReleaseScript           = script("multi_release")
	multiExtendScript            = script("multi_extend")
	multiTTLScript               = script("multi_ttl")
	forceReleaseScript           = script("force_release")
)

// Scripts returns the Lua sources the patterns run, by name (each with its
// libraries prepended), so that a simulated node or a differential test can
// execute exactly these.
func Scripts() map[string]string { return maps.Clone(scriptSources) }
