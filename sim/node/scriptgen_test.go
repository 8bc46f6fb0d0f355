package node

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/locksim/locksim/locks/scripts"
)

// The generator of the all-scripts differential tests: every script of
// scripts.All() with arguments in the roles it reads them (lock keys,
// member sets, tokens, TTLs, member prefixes), over one small key space
// shared with plain commands on strings, hashes, sets and sorted sets, so
// that scripts meet each other's keys, expired members and wrong types.

// scriptSpec draws the KEYS and ARGV of one script.
type scriptSpec func(g *gen) (keys, argv []string)

type gen struct {
	r     *rand.Rand
	timed bool // against miniredis: short TTLs ending in 5, advanced in 10ms steps
}

func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }
func (g *gen) key() string              { return g.pick("{r}:lock", "{r}:q", "{r}:t", "{r}:i", "{r}:m:a") }
func (g *gen) tok() string              { return g.pick("a", "b", "c") }

// entry is a holding's id: few, so that requests repeat one (a duplicate)
// as well as name new ones.
func (g *gen) entry() string  { return g.pick("a.1", "a.2", "b.1") }
func (g *gen) prefix() string { return g.pick("{r}:m:", "{r}:m:", "{r}:") }

// ttl is usually valid; sometimes zero, negative or not a number.
func (g *gen) ttl() string {
	if g.r.IntN(8) == 0 {
		return g.pick("0", "-5", "x")
	}
	if g.timed {
		return g.pick("95", "255", "1005")
	}
	return g.pick("95000", "255000", "1005000")
}

// validTTL is for SET ... PX inside a script, where miniredis and Redis
// disagree on which error an invalid expiry meets first.
func (g *gen) validTTL() string {
	if g.timed {
		return g.pick("95", "255", "1005")
	}
	return g.pick("95000", "255000")
}

func (g *gen) keys(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = g.key()
	}
	return out
}

// multiKeys draws one to three distinct keys, as a MultiLock's are.
func (g *gen) multiKeys() []string {
	ks := g.keys(1 + g.r.IntN(3))
	slices.Sort(ks)
	return slices.Compact(ks)
}

var scriptSpecs = map[string]scriptSpec{
	"release":        func(g *gen) ([]string, []string) { return g.keys(1), []string{g.tok()} },
	"extend":         func(g *gen) ([]string, []string) { return g.keys(1), []string{g.tok(), g.ttl()} },
	"fenced_acquire": func(g *gen) ([]string, []string) { return g.keys(2), []string{g.tok(), g.validTTL()} },
	"reentrant_acquire": func(g *gen) ([]string, []string) {
		return g.keys(1), []string{g.tok(), g.ttl(), g.entry(), g.pick("", "a.", "b.")}
	},
	"reentrant_release": func(g *gen) ([]string, []string) { return g.keys(1), []string{g.tok(), g.ttl(), g.entry()} },
	"probe":             func(g *gen) ([]string, []string) { return g.keys(1), nil },
	"reentrant_extend":  func(g *gen) ([]string, []string) { return g.keys(1), []string{g.tok(), g.ttl()} },
	"token_acquire":     func(g *gen) ([]string, []string) { return g.keys(1), []string{g.tok(), g.validTTL()} },
	"redlock_extend":    func(g *gen) ([]string, []string) { return g.keys(1), []string{g.tok(), g.validTTL()} },
	"redlock_acquire":   func(g *gen) ([]string, []string) { return g.keys(1), []string{g.tok(), g.validTTL()} },
	"reentrant_fenced_acquire": func(g *gen) ([]string, []string) {
		return g.keys(2), []string{g.tok(), g.validTTL(), g.entry(), g.pick("", "a.", "b.")}
	},
	"fair_acquire": func(g *gen) ([]string, []string) { // a 4th key: the fence counter of Fencing
		return g.keys(3 + g.r.IntN(2)), []string{g.tok(), g.validTTL(), g.validTTL(), g.prefix()}
	},
	"fair_leave": func(g *gen) ([]string, []string) {
		return g.keys(2), []string{g.tok(), g.prefix(), g.prefix(), g.validTTL()}
	},
	"fair_release": func(g *gen) ([]string, []string) {
		return g.keys(2), []string{g.tok(), g.prefix(), g.prefix(), g.validTTL()}
	},
	"rw_rlock": func(g *gen) ([]string, []string) {
		return g.keys(3), []string{g.tok(), g.validTTL(), g.prefix()}
	},
	"rw_lock": func(g *gen) ([]string, []string) {
		return g.keys(3), []string{g.tok(), g.validTTL(), g.validTTL(), g.prefix()}
	},
	"rw_wleave": func(g *gen) ([]string, []string) { return g.keys(2), []string{g.tok()} },
	"rw_writer_read": func(g *gen) ([]string, []string) {
		return g.keys(2), []string{g.tok(), g.tok(), g.validTTL(), g.prefix(), g.pick("0", "1")}
	},
	"member_release": func(g *gen) ([]string, []string) { return g.keys(1), []string{g.tok(), g.prefix()} },
	"member_extend":  func(g *gen) ([]string, []string) { return g.keys(1), []string{g.tok(), g.ttl(), g.prefix()} },
	"sem_acquire": func(g *gen) ([]string, []string) {
		return g.keys(2), []string{g.tok(), g.validTTL(), g.pick("1", "2", "2", "3", "x"), g.prefix(), g.pick("1", "1", "2", "x")}
	},
	"sem_resize": func(g *gen) ([]string, []string) {
		return g.keys(1), []string{g.pick("1", "2", "3"), g.pick("1", "2", "3")}
	},
	"sem_available": func(g *gen) ([]string, []string) { return g.keys(2), []string{g.prefix()} },
	"ttl":           func(g *gen) ([]string, []string) { return g.keys(1), []string{g.tok()} },
	"reentrant_ttl": func(g *gen) ([]string, []string) { return g.keys(1), []string{g.tok(), g.entry()} },
	"member_ttl":    func(g *gen) ([]string, []string) { return g.keys(1), []string{g.tok(), g.prefix()} },
	"multi_acquire": func(g *gen) ([]string, []string) { return g.multiKeys(), []string{g.tok(), g.validTTL()} },
	"multi_release": func(g *gen) ([]string, []string) { return g.multiKeys(), []string{g.tok()} },
	"multi_extend":  func(g *gen) ([]string, []string) { return g.multiKeys(), []string{g.tok(), g.ttl()} },
	"multi_ttl":     func(g *gen) ([]string, []string) { return g.multiKeys(), []string{g.tok()} },
	"force_release": func(g *gen) ([]string, []string) { return g.multiKeys(), nil },
	"adopt": func(g *gen) ([]string, []string) {
		return g.keys(1 + g.r.IntN(2)), []string{g.tok(), g.ttl()}
	},
	"inspect": func(g *gen) ([]string, []string) {
		kind := g.pick("basic", "reentrant", "fenced", "fair", "rwlock", "semaphore", "other")
		n := map[string]int{"fenced": 2, "fair": 2, "rwlock": 3}[kind]
		return g.keys(max(n, 1)), []string{kind, g.prefix()}
	},
}

// scriptNamesSorted lists the scripts the generator draws from.
func scriptNamesSorted() []string {
	var out []string
	for name := range scriptSpecs {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// genAllOps draws n steps: scripts (by name) and commands, with time moving
// forward between them when timed.
func genAllOps(r *rand.Rand, n int, timed bool) []op {
	g := &gen{r: r, timed: timed}
	names := scriptNamesSorted()
	out := make([]op, n)
	for i := range out {
		var o op
		if timed && r.IntN(4) == 0 {
			o.advance = 10 * int64(r.IntN(30))
		}
		if r.IntN(3) != 0 {
			o.script = names[r.IntN(len(names))]
			o.keys, o.argv = scriptSpecs[o.script](g)
		} else {
			o.args = g.command()
		}
		out[i] = o
	}
	return out
}

// command is a plain command on the shared key space.
func (g *gen) command() []string {
	k, m := g.key(), g.tok()
	score := g.pick("1", "2", "3")
	if !g.timed && g.r.IntN(3) == 0 {
		score = g.pick("0.1", "-1.5", "inf") // miniredis formats fractional scores differently
	}
	cmds := [][]string{
		{"SET", k, m, "NX", "PX", g.validTTL()}, {"SET", k, m}, {"GET", k}, {"DEL", k},
		{"SET", "{r}:m:" + m, "1", "PX", g.validTTL()}, {"PEXPIRE", k, g.ttl()},
		{"INCR", k}, {"HINCRBY", k, m, "1"}, {"SADD", k, m}, {"SREM", k, m}, {"SMEMBERS", k},
		{"SISMEMBER", k, m}, {"SCARD", k}, {"ZADD", k, score, m}, {"ZREM", k, m}, {"ZSCORE", k, m},
		{"ZRANGE", k, "0", "-1"}, {"ZRANGE", k, "0", "-1", "WITHSCORES"}, {"ZRANK", k, m},
		{"ZCARD", k}, {"TYPE", k}, {"GETRANGE", k, "0", g.pick("-1", "1", "-9")}, {"PTTL", k},
		{"RPUSH", k, m}, {"LPUSH", k, m, m}, {"LPOP", k}, {"LLEN", k}, {"LRANGE", k, "0", "-1"},
	}
	return cmds[g.r.IntN(len(cmds))]
}

// engineStore runs every script on a Lua engine over a native store
// (twins bypassed) and flags any command the native store lacks.
type engineStore struct {
	*Native
	e           *luaEngine
	unsupported []string
}

func newEngineStore() *engineStore { return &engineStore{Native: NewNative(), e: newLuaEngine()} }

func (s *engineStore) Eval(now int64, src string, keys, args []string) Reply {
	return s.e.Run(sha1hex(src), src, keys, args, false, func(a []string, _ *cmdInfo) Reply {
		if !s.Supports(a) {
			s.unsupported = append(s.unsupported, strings.Join(a, " "))
		}
		return s.Native.Do(now, a)
	})
}

// unordered sorts the replies whose order Redis leaves to its hash tables:
// SMEMBERS, and inspect's holders (groups of four after two counters).
func unordered(o op, r Reply) Reply {
	switch {
	case r.Kind != KindArray:
		return r
	case o.script == "" && Upper(o.args[0]) == "SMEMBERS":
		r.Arr = slices.Clone(r.Arr)
		slices.SortFunc(r.Arr, func(a, b Reply) int { return strings.Compare(a.String(), b.String()) })
	case o.script == "inspect" && len(r.Arr) > 2:
		var groups [][]Reply
		for i := 2; i+4 <= len(r.Arr); i += 4 {
			groups = append(groups, r.Arr[i:i+4])
		}
		slices.SortFunc(groups, func(a, b []Reply) int { return strings.Compare(Array(a...).String(), Array(b...).String()) })
		out := slices.Clone(r.Arr[:2])
		for _, g := range groups {
			out = append(out, g...)
		}
		r.Arr = out
	}
	return r
}

// TestGeneratorCoversEveryScript fails when locks gains a script the
// differential tests do not draw.
func TestGeneratorCoversEveryScript(t *testing.T) {
	for name := range scripts.All() {
		if scriptSpecs[name] == nil {
			t.Errorf("script %q of scripts.All() has no generator in scriptSpecs", name)
		}
	}
	for name := range scriptSpecs {
		if _, ok := scripts.All()[name]; !ok {
			t.Errorf("scriptSpecs draws %q, which scripts.All() no longer has", name)
		}
	}
}

// roundTTLs rounds the PTTLs of inspect's holders, and those the TTL
// scripts return, to whole seconds: a real server's clock moves between
// the steps.
// heldForReply are the scripts whose refusal replies minus the PTTL of
// the key held (its first element, for an array).
var heldForReply = map[string]bool{"reentrant_acquire": true, "fenced_acquire": true, "reentrant_fenced_acquire": true,
	"rw_lock": true, "rw_rlock": true}

func roundTTLs(o op, r Reply) Reply {
	if strings.HasSuffix(o.script, "ttl") && r.Kind == KindInt && r.Int > 0 {
		return Int((r.Int + 500) / 1000)
	}
	if heldForReply[o.script] { // a refusal: minus the PTTL of the key held
		if r.Kind == KindInt && r.Int < 0 {
			return Int((r.Int - 500) / 1000)
		}
		if r.Kind == KindArray && len(r.Arr) > 0 && r.Arr[0].Kind == KindInt && r.Arr[0].Int < 0 {
			r.Arr = slices.Clone(r.Arr)
			r.Arr[0] = Int((r.Arr[0].Int - 500) / 1000)
			return r
		}
	}
	if o.script != "inspect" || r.Kind != KindArray {
		return r
	}
	r.Arr = slices.Clone(r.Arr)
	for i := 3; i < len(r.Arr); i += 4 {
		if r.Arr[i].Kind == KindInt {
			r.Arr[i] = Int((r.Arr[i].Int + 500) / 1000)
		}
	}
	return r
}
