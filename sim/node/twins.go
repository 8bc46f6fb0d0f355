package node

import (
	"strings"

	"github.com/locksim/locksim/locks/scripts"
)

// Guarded twins: Go versions of the member-set scripts (the semaphore's,
// the read-write lock's, the fair lock's) and of the fenced reentrant
// acquisition, for the patterns that send one of them on every poll.
//
// Unlike the twins of native_scripts.go, a guarded twin does not answer
// every input. Before its first effect it checks that none of the
// script's redis.call can fail on this input: the keys it names are
// distinct and of the type the script needs (or absent), every TTL is a
// positive integer and every counter an integer small enough for Lua's
// numbers to hold it exactly. If any check fails it declines and the node
// runs the script on its Lua engine, so errors (whose wording names the
// script line) and corner cases such as aliased keys are always the
// engine's. On the inputs it takes, it makes the script's calls on the
// native store in the script's order, so the replies, the effects and the
// keys written (for replication) are the engine's. TestGuardedTwinsMatchEngine
// holds them to the engine byte for byte, and the differential tests to
// miniredis and redis-server.

// guardedTwin is one guarded twin: the KEYS and ARGV it needs at least,
// and the run that declines (ok false, nothing done) or answers.
type guardedTwin struct {
	keys, args int
	run        func(t *twinRun, keys, args []string) (r Reply, ok bool)
}

// guardedByName holds the guarded twins by script name; guardedTwins binds
// them to the SHA1 of the current sources (see nativeScripts).
var guardedByName = map[string]guardedTwin{
	"sem_acquire":              {keys: 2, args: 5, run: twinSemAcquire},
	"member_release":           {keys: 1, args: 2, run: twinMemberRelease},
	"rw_rlock":                 {keys: 3, args: 3, run: twinRWRLock},
	"rw_lock":                  {keys: 3, args: 4, run: twinRWLock},
	"fair_acquire":             {keys: 3, args: 4, run: twinFairAcquire},
	"fair_release":             {keys: 2, args: 4, run: twinFairRelease},
	"reentrant_fenced_acquire": {keys: 2, args: 3, run: twinReentrantFencedAcquire},
}

var guardedTwins = map[string]guardedTwin{}

func init() {
	for name, src := range scripts.All() {
		if g, ok := guardedByName[name]; ok {
			guardedTwins[sha1hex(src)] = g
		}
	}
}

// tryTwin runs the script with this SHA1 by its guarded twin, if it has
// one that takes this input; it returns the reply and the keys written. A
// read-only call (EVALSHA_RO) is always declined: the scripts write.
func (n *Native) tryTwin(now int64, sha string, keys, args []string, ro bool) (Reply, []string, bool) {
	g, ok := guardedTwins[sha]
	if !ok || ro || len(keys) < g.keys || len(args) < g.args {
		return Reply{}, nil, false
	}
	t := twinRun{n: n, now: now}
	r, ok := g.run(&t, keys, args)
	return r, t.written, ok
}

// twinRun is one call of a guarded twin: the store, the node's time, and
// the keys written so far, listed as the engine lists them (one per
// successful write command; nil if none).
type twinRun struct {
	n       *Native
	now     int64
	written []string
}

// read runs a command that writes nothing.
func (t *twinRun) read(cmd nativeCmd, args ...string) Reply { return cmd(t.n, t.now, args) }

// write runs a one-key write command, noting its key if it succeeded.
func (t *twinRun) write(cmd nativeCmd, args ...string) Reply {
	r := cmd(t.n, t.now, args)
	if !r.IsError() {
		t.written = append(t.written, args[1])
	}
	return r
}

// maxExact bounds the integers a guarded twin lets through: Lua's numbers
// (float64) hold every integer below it exactly.
const maxExact = 1 << 52

// maxTTL bounds the TTLs it lets through (about 35 years), far from the
// expiry overflow Redis refuses.
const maxTTL = 1 << 40

// ttl parses a TTL argument the guards accept: a positive integer, written
// as Redis and Lua's tonumber both read it.
func ttl(arg string) (int64, bool) {
	v, ok := parseInt(arg)
	return v, ok && v > 0 && v <= maxTTL
}

// small parses an integer argument of at most maxExact in size.
func small(arg string) (int64, bool) {
	v, ok := parseInt(arg)
	return v, ok && v < maxExact && v > -maxExact
}

// kindOK reports whether key is absent or of the kind want accepts.
func (t *twinRun) kindOK(key string, want func(*entry) bool) bool {
	e := t.n.get(t.now, key)
	return e == nil || want(e)
}

func isSet(e *entry) bool  { return e.set != nil }
func isZSet(e *entry) bool { return e.zset != nil }
func isHash(e *entry) bool { return e.hash != nil }
func isList(e *entry) bool { return e.list != nil }
func isStr(e *entry) bool  { return e.isString() }

// counter reports whether key can be INCRed without error or loss of
// exactness: absent, or a string holding a small integer.
func (t *twinRun) counter(key string) bool {
	e := t.n.get(t.now, key)
	if e == nil {
		return true
	}
	_, ok := small(e.str)
	return e.isString() && ok
}

// distinct reports whether no two keys are equal.
func distinct(keys ...string) bool {
	for i, k := range keys {
		for _, o := range keys[:i] {
			if k == o {
				return false
			}
		}
	}
	return true
}

// underPrefix reports whether a member key prefix .. m could be one of
// keys, whatever m.
func underPrefix(prefix string, keys ...string) bool {
	for _, k := range keys {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// keep is lib_members.lua's keep: PEXPIRE key ms if its PTTL is shorter.
func (t *twinRun) keep(key string, ms int64, arg string) {
	if t.read(cmdPTTL, "PTTL", key).Int < ms {
		t.write(pexpire, "PEXPIRE", key, arg)
	}
}

var pexpire = cmdExpire(1)

// pruneSet is lib_members.lua's prune_set.
func (t *twinRun) pruneSet(key, prefix string) int64 {
	var live int64
	for _, m := range t.read(cmdSMembers, "SMEMBERS", key).Arr {
		if t.read(cmdExists, "EXISTS", prefix+m.Str).Int == 1 {
			live++
		} else {
			t.write(cmdSRem, "SREM", key, m.Str)
		}
	}
	return live
}

// pruneZSet is lib_members.lua's prune_zset.
func (t *twinRun) pruneZSet(key, prefix string) int64 {
	var live int64
	for _, m := range t.read(cmdZRange, "ZRANGE", key, "0", "-1").Arr {
		if t.read(cmdExists, "EXISTS", prefix+m.Str).Int == 1 {
			live++
		} else {
			t.write(cmdZRem, "ZREM", key, m.Str)
		}
	}
	return live
}
