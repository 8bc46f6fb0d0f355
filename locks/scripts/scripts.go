// Package scripts holds the Lua that the patterns of package locks run on
// Redis, so that anything that must execute exactly these (a simulated
// node, a differential test against redis-server, a Locker built with
// package lockkit) reads them from one place.
//
// Each script is a file, <name>.lua; some run with libraries (lib_*.lua)
// prepended. All and Source give a script's full source, its libraries
// first; package locks wraps each in a *redis.Script.
package scripts

import (
	"embed"
	"fmt"
	"maps"
)

//go:embed *.lua
var files embed.FS

// spec is one row of table: a script's name (its file is <name>.lua) and
// the libraries prepended to it, in order.
type spec struct {
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
// wake-up of the queue's head (see locks' wake.go).
var (
	withMembers = []string{"lib_members"}
	withWake    = []string{"lib_members", "lib_wake"}
	// lib_type.lua refuses a key of another type than a string where a
	// script reads a string key's presence as "held".
	withTyped = []string{"lib_members", "lib_type"}
	// lib_reentry.lua drops a reentrant owner's stale entries before its
	// acquisition decides.
	withReentry = []string{"lib_reentry"}
)

// table is every script the patterns run.
var table = []spec{
	{"release", nil},
	{"extend", nil},
	{"reentrant_acquire", withReentry},
	{"reentrant_release", nil},
	{"reentrant_extend", nil},
	{"fenced_acquire", nil},
	{"probe", nil},
	{"reentrant_fenced_acquire", withReentry},
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

// sources maps each script of table to its full source, its libraries
// first.
var sources = func() map[string]string {
	out := make(map[string]string, len(table))
	for _, s := range table {
		var src string
		for _, lib := range s.libs {
			src += file(lib)
		}
		out[s.name] = src + file(s.name)
	}
	return out
}()

// file reads <name>.lua; the files are embedded, so a missing one is a
// build mistake.
func file(name string) string {
	b, err := files.ReadFile(name + ".lua")
	if err != nil {
		panic(fmt.Sprintf("scripts: %q: %v", name, err))
	}
	return string(b)
}

// All returns every script the patterns run, by name, each with its
// libraries prepended.
func All() map[string]string { return maps.Clone(sources) }

// Source returns the named script's full source, its libraries first. It
// panics on a name that is not a script: the names are fixed at build.
func Source(name string) string {
	src, ok := sources[name]
	if !ok {
		panic(fmt.Sprintf("scripts: %q is not a script", name))
	}
	return src
}
