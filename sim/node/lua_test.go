package node

import (
	"context"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks/lockstest/redistest"
	"github.com/locksim/locksim/sim/sched"
)

// luaCases are scripts whose replies — error texts included — the engine
// must give exactly as redis-server 7 does. Each runs on a fresh data set
// holding "h" (a hash) and "s" (a string).
var luaCases = []string{
	"return 1",
	"return 3.7",
	"return -2.5",
	"return {1, 2, nil, 3}",
	"return {1, {2, 'x'}, false}",
	"return true",
	"return false",
	"return nil",
	"return redis.status_reply('FINE')",
	"return redis.error_reply('My Error')",
	"return redis.error_reply('WRONG thing')",
	"return {err = 'boom'}",
	"return redis.sha1hex('')",
	"return redis.call('GET', 's')",
	"return redis.call('GET', 'nokey')",
	"return redis.call('SET', 'n', 1.5)",
	"return redis.call('SET', 'n', 7)",
	"redis.call('SET', 'n', 1e20) return redis.call('GET', 'n')",
	"return redis.call('INCR', 'h')",
	"return redis.pcall('INCR', 'h')",
	"local t = redis.pcall('INCR', 'h') return t['err']",
	"return redis.call('NOPE')",
	"return redis.call('GET', {})",
	"return redis.call()",
	"return redis.call('EVAL', 'return 1', '0')",
	"return redis.call('SET', 'z', '1', 'PX', 'x')",
	"return redis.call('HGETALL', 'h')",
	"return redis.call('TYPE', 'h')",
	"x = 1",
	"return y",
	"function f() end",
	"string.foo = 1",
	"string.rep = nil return 1",
	"return _G.x",
	"rawset(_G, 'x', 1) return 1",
	"error('xx')",
	"return 1 + nil",
	"return (",
	"print('x') return 1",
	"return type(dofile)",
	"return type(setfenv)",
	"return type(loadstring)",
	"return type(cjson)",
	"return cjson.encode({1, 2})",
	"return cjson.decode('[1,2]')[2]",
	"return type(os)",
	"return type(require)",
	"return KEYS[1] .. ARGV[1] .. #KEYS .. #ARGV",
	"return ('abc'):upper()",
	"return string.format('%d-%s', 3, 'x')",
	"return table.concat({'a', 'b'}, ',')",
	"local t = {} table.insert(t, 'v') return t",
	"return tonumber('12') + 1",
	"return unpack({5, 6})",
	"return select('#', 1, 2, 3)",
	"return redis.call('ZADD', 'zz', 1, 'a', 2, 'b')",
	"redis.call('ZADD', 'zz', 0.1, 'a') return redis.call('ZRANGE', 'zz', 0, -1, 'WITHSCORES')",
	"redis.call('SADD', 'ss', 'b', 'a') local m = redis.call('SMEMBERS', 'ss') table.sort(m) return m",
	"return redis.call('GETRANGE', 's', 0, -2)",
	"return redis.call('GETRANGE', 's', 0, -100)",
}

// TestLuaMatchesRedisServer holds the engine's replies, error texts
// included, equal to a real redis-server's on luaCases.
func TestLuaMatchesRedisServer(t *testing.T) {
	srv := redistest.Require(t, 1)
	c := redis.NewClient(&redis.Options{Addr: srv[0].Addr, Protocol: 2, DialerRetries: 1})
	defer c.Close()
	ctx := context.Background()
	for _, src := range luaCases {
		n := luaNode(t)
		seed := [][]string{{"HINCRBY", "h", "a", "1"}, {"SET", "s", "hello"}}
		if err := c.FlushAll(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range seed {
			n.Exec(cmd)
			c.Do(ctx, toAny(cmd)...)
		}
		got := n.Exec([]string{"EVAL", src, "1", "k1", "a1"})
		cmd := c.Eval(ctx, src, []string{"k1"}, "a1")
		want := fromGoRedis(cmd.Val(), cmd.Err())
		if n.Stats().Backend != string(BackendNative) && !strings.Contains(src, "NOPE") {
			t.Errorf("EVAL %q moved the node to miniredis", src)
		}
		if !exact(loose(got), loose(want)) && !sameVMError(got, want) {
			t.Errorf("EVAL %q:\n  node         %v\n  redis-server %v", src, got, want)
		}
	}
}

// sameVMError accepts two errors whose texts differ only where the Lua
// virtual machine words them (gopher-lua is not C Lua): the runtime error
// of "1 + nil", a syntax error. What Redis adds around them must match.
func sameVMError(a, b Reply) bool {
	if !a.IsError() || !b.IsError() {
		return false
	}
	for _, p := range []string{"ERR user_script:1: ", "ERR Error compiling script (new function): user_script"} {
		if strings.HasPrefix(a.Str, p) && strings.HasPrefix(b.Str, p) {
			_, sa, _ := strings.Cut(a.Str, " script: ")
			_, sb, _ := strings.Cut(b.Str, " script: ")
			return sa == sb
		}
	}
	return false
}

// exact is Reply.Equal with error texts compared too.
func exact(a, b Reply) bool {
	if a.IsError() && b.IsError() {
		return a.Str == b.Str
	}
	return a.Equal(b)
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// luaNode is a native node that runs every script on its Lua engine.
func luaNode(t testing.TB) *Node {
	n, err := New(Config{Name: "n1"}, sched.New())
	if err != nil {
		t.Fatal(err)
	}
	n.noTwins = true
	t.Cleanup(n.Close)
	return n
}

// TestLuaCallsAreIsolated checks that a script cannot leave state behind
// for the next call, and that math.random restarts at every call.
func TestLuaCallsAreIsolated(t *testing.T) {
	n := luaNode(t)
	for i, src := range []string{"x = 1", "_G.x = 1", "redis.x = 1", "math.floor = nil",
		"rawset(_G, 'x', 1)", "rawset(redis, 'x', 1)", "setmetatable(_G, nil)", "getmetatable('').__index = {}"} {
		r := n.Exec([]string{"EVAL", src, "0"})
		if !r.IsError() {
			t.Errorf("EVAL %q = %v, want an error (globals are read-only)", src, r)
		}
		if i == 0 && !strings.Contains(r.Str, "Attempt to modify a readonly table") {
			t.Errorf("EVAL %q = %v, want Redis's readonly-table error", src, r)
		}
	}
	checks := map[string]Reply{
		"return type(x)":            Bulk("nil"), // Redis: nonexistent global → error; type(x) reads it
		"return math.floor(1.5)":    Int(1),
		"return type(redis.x)":      Bulk("nil"),
		"return ('ab'):upper()":     Bulk("AB"),
		"return #KEYS + #ARGV":      Int(0),
		"return tostring(ARGV[1])":  Bulk("nil"),
		"return math.random(1000)":  n.Exec([]string{"EVAL", "return math.random(1000)", "0"}),
		"return math.random(1, 10)": n.Exec([]string{"EVAL", "return math.random(1, 10)", "0"}),
	}
	n.Exec([]string{"EVAL", "return KEYS[1] .. ARGV[1]", "1", "k", "a"})
	for src, want := range checks {
		got := n.Exec([]string{"EVAL", src, "0"})
		if src == "return type(x)" {
			if !got.IsError() || !strings.Contains(got.Str, "nonexistent global variable 'x'") {
				t.Errorf("EVAL %q = %v, want the nonexistent-global error", src, got)
			}
			continue
		}
		if !got.Equal(want) || got.IsError() {
			t.Errorf("EVAL %q = %v, want %v", src, got, want)
		}
	}
}
