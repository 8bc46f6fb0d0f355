package node

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/locksim/locksim/locks/scripts"
)

// nativeScript is a Go implementation of one of the patterns' Lua scripts,
// with the numbers of KEYS and ARGV it reads. Like Lua under Redis, it
// stops at the first command error and keeps the effects before it.
type nativeScript struct {
	name       string
	keys, args int
	run        func(n *Native, now int64, keys, args []string) Reply
}

// nativeByName holds the implementations, keyed by the script names of
// scripts.All(); nativeScripts binds them to the SHA1 of the current
// source, so a changed script falls back to miniredis (and the
// differential test flags the implementation as stale).
var nativeByName = map[string]nativeScript{
	"release":           {keys: 1, args: 1, run: scriptRelease},
	"extend":            {keys: 1, args: 2, run: scriptExtend},
	"fenced_acquire":    {keys: 2, args: 2, run: scriptFencedAcquire},
	"reentrant_acquire": {keys: 1, args: 4, run: scriptReentrantAcquire},
	"reentrant_release": {keys: 1, args: 3, run: scriptReentrantRelease},
	"reentrant_extend":  {keys: 1, args: 2, run: scriptReentrantExtend},
	"redlock_acquire":   {keys: 1, args: 2, run: scriptRedlockAcquire},
}

var nativeScripts = map[string]nativeScript{}

// scriptNames maps the SHA1 of each script of scripts.All() to its name.
var scriptNames = map[string]string{}

func init() {
	for name, src := range scripts.All() {
		sha := sha1hex(src)
		scriptNames[sha] = name
		if s, ok := nativeByName[name]; ok {
			s.name = name
			nativeScripts[sha] = s
		}
	}
}

// ScriptName returns the name scripts.All() gives the script with this
// SHA1, or "" for a script the patterns do not use.
func ScriptName(sha string) string { return scriptNames[sha] }

func sha1hex(src string) string {
	h := sha1.Sum([]byte(src))
	return hex.EncodeToString(h[:])
}

// SHA1 returns the script's SHA1 as EVALSHA wants it.
func SHA1(src string) string { return sha1hex(src) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// pexpire is redis.call('PEXPIRE', key, arg) inside a script.
func (n *Native) pexpire(now int64, key, arg string) Reply {
	ms, ok := parseInt(arg)
	if !ok {
		return errNotInt
	}
	return Int(n.expire(now, key, ms))
}

func scriptRelease(n *Native, now int64, keys, args []string) Reply {
	v := n.getStr(now, keys[0])
	if v.IsError() {
		return v
	}
	if v.Kind == KindBulk && v.Str == args[0] {
		return Int(n.del(now, keys[0]))
	}
	return Int(0)
}

func scriptExtend(n *Native, now int64, keys, args []string) Reply {
	v := n.getStr(now, keys[0])
	if v.IsError() {
		return v
	}
	if v.Kind == KindBulk && v.Str == args[0] {
		return n.pexpire(now, keys[0], args[1])
	}
	return Int(0)
}

func scriptFencedAcquire(n *Native, now int64, keys, args []string) Reply {
	if v := n.getStr(now, keys[0]); v.IsError() || v.Kind == KindBulk {
		if v.IsError() {
			return v
		}
		return n.heldFor(now, keys[0])
	}
	r := cmdSet(n, now, []string{"SET", keys[0], args[0], "NX", "PX", args[1]})
	if r.IsError() || r.IsNil() {
		if r.IsNil() {
			return Int(0)
		}
		return r
	}
	f := n.incr(now, keys[1])
	if f.IsError() {
		n.del(now, keys[0])
	}
	return f
}

func scriptRedlockAcquire(n *Native, now int64, keys, args []string) Reply {
	if v := n.getStr(now, keys[0]); v.IsError() || v.Kind == KindBulk {
		if v.Kind == KindBulk && v.Str == args[0] {
			return Int(1) // the attempt's own request, sent again
		}
		return zeroUnlessError(v)
	}
	if r := cmdSet(n, now, []string{"SET", keys[0], args[0], "PX", args[1]}); r.IsError() {
		return r
	}
	return Int(1)
}

func scriptReentrantAcquire(n *Native, now int64, keys, args []string) Reply {
	if r := n.dropStale(now, keys[0], args[0], args[2], args[3]); r.IsError() {
		return r
	}
	if n.get(now, keys[0]) != nil {
		h := n.hexists(now, keys[0], args[0])
		if h.IsError() {
			return h
		}
		if h.Int == 0 {
			return n.heldFor(now, keys[0])
		}
	}
	entry := "@" + args[2]
	if h := n.hexists(now, keys[0], entry); h.IsError() || h.Int == 1 {
		if h.IsError() {
			return h
		}
		return luaNumber(cmdHGet(n, now, []string{"HGET", keys[0], args[0]}))
	}
	if r := n.hincrby(now, keys[0], entry, 1); r.IsError() {
		return r
	}
	c := n.hincrby(now, keys[0], args[0], 1)
	if c.IsError() {
		return c
	}
	if r := n.pexpire(now, keys[0], args[1]); r.IsError() {
		return r
	}
	return c
}

// dropStale is the first step of reentrant_acquire.lua: with a prefix,
// the owner's entries under it other than entry are removed and taken off
// its count, and the key deleted once the count is down to zero.
func (n *Native) dropStale(now int64, key, owner, entry, prefix string) Reply {
	if prefix == "" {
		return Int(0)
	}
	if h := n.hexists(now, key, owner); h.IsError() || h.Int == 0 {
		return h
	}
	p, own := "@"+prefix, "@"+entry
	var stale []string
	for _, f := range sortedFields(n.get(now, key).hash) {
		if f[0] != own && strings.HasPrefix(f[0], p) {
			stale = append(stale, f[0])
		}
	}
	if len(stale) == 0 {
		return Int(0)
	}
	n.hdel(now, key, stale...)
	c := n.hincrby(now, key, owner, -int64(len(stale)))
	if c.IsError() {
		return c
	}
	if c.Int <= 0 {
		n.del(now, key)
	}
	return Int(0)
}

// luaNumber is a script's return of tonumber(reply): an integer for a
// bulk string holding one, nil otherwise.
func luaNumber(r Reply) Reply {
	if r.Kind != KindBulk {
		return Nil()
	}
	v, ok := parseInt(r.Str)
	if !ok {
		return Nil()
	}
	return Int(v)
}

func scriptReentrantRelease(n *Native, now int64, keys, args []string) Reply {
	entry := "@" + args[2]
	h := n.hexists(now, keys[0], entry)
	if h.IsError() {
		return h
	}
	if h.Int == 0 {
		return Int(-1)
	}
	n.hdel(now, keys[0], entry)
	c := n.hincrby(now, keys[0], args[0], -1)
	if c.IsError() {
		return c
	}
	if c.Int > 0 {
		if r := n.pexpire(now, keys[0], args[1]); r.IsError() {
			return r
		}
		return c
	}
	n.del(now, keys[0])
	return Int(0)
}

func scriptReentrantExtend(n *Native, now int64, keys, args []string) Reply {
	h := n.hexists(now, keys[0], args[0])
	if h.IsError() || h.Int == 0 {
		return zeroUnlessError(h)
	}
	return n.pexpire(now, keys[0], args[1])
}

// heldFor is a refused acquisition's reply: minus the PTTL of the key
// found held (at least 1), or 0 if it has no expiry.
func (n *Native) heldFor(now int64, key string) Reply {
	if t := cmdPTTL(n, now, []string{"PTTL", key}); t.Int >= 0 {
		return Int(-max(t.Int, 1))
	}
	return Int(0)
}

func zeroUnlessError(r Reply) Reply {
	if r.IsError() {
		return r
	}
	return Int(0)
}
