package node

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks/lockstest/redistest"
	"github.com/locksim/locksim/locks/scripts"
)

// op is one step of a differential run: a command, a script call, or time
// moving forward.
type op struct {
	args    []string // a command, when script == ""
	script  string   // a script name from scripts.All()
	keys    []string
	argv    []string
	advance int64 // ms of node time to move forward before the step
}

func (o op) String() string {
	if o.script != "" {
		return fmt.Sprintf("+%dms %s %v %v", o.advance, o.script, o.keys, o.argv)
	}
	return fmt.Sprintf("+%dms %v", o.advance, o.args)
}

// genOps draws n steps over a small key space, so that scripts and
// commands keep meeting each other's keys (wrong types included). With
// timed, TTLs are short and time advances in 10ms steps, which never land
// on an expiry instant (TTLs end in 5): miniredis expires a key at exactly
// its TTL, Redis one millisecond later. Timed runs (against miniredis)
// also give SET only valid expiries: on SET NX with an invalid expiry and
// an existing key, Redis reports the bad expiry and miniredis the NX miss.
func genOps(r *rand.Rand, n int, timed bool) []op {
	keys := []string{"k", "h", "{r}:lock", "{r}:fence"}
	ttls := []string{"95", "255", "1005", "0", "-5", "x"} // miniredis takes "01" for 1; Redis refuses it
	setTTLs := ttls[:3]
	if !timed {
		ttls = []string{"95000", "255000", "1005000", "0", "-5", "x", "01"}
		setTTLs = ttls
	}
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	names := []string{"release", "extend", "fenced_acquire", "reentrant_acquire", "reentrant_release", "reentrant_extend"}
	out := make([]op, n)
	for i := range out {
		var o op
		if timed && r.IntN(4) == 0 {
			o.advance = 10 * int64(r.IntN(30))
		}
		if r.IntN(2) == 0 {
			o.script = pick(names)
			o.keys = []string{pick(keys), pick(keys)}[:nativeByName[o.script].keys]
			o.argv = []string{pick([]string{"a", "b"}), pick(ttls)}
			if nativeByName[o.script].args >= 3 {
				o.argv = append(o.argv, pick([]string{"e1", "e2"}))
			}
			if nativeByName[o.script].args == 4 { // the prefix of stale entries to drop
				o.argv = append(o.argv, pick([]string{"", "", "e"}))
			}
			if o.script == "fenced_acquire" {
				o.argv[1] = pick(setTTLs)
			}
		} else {
			o.args = genCommand(r, pick, keys, ttls, setTTLs, timed)
		}
		out[i] = o
	}
	return out
}

func genCommand(r *rand.Rand, pick func([]string) string, keys, ttls, setTTLs []string, timed bool) []string {
	k, v := pick(keys), pick([]string{"a", "b", "7"})
	cmds := [][]string{
		{"SET", k, v, "NX", "PX", pick(setTTLs)}, {"SET", k, v}, {"SET", k, v, "XX"}, {"SET", k, v, "KEEPTTL"},
		{"GET", k}, {"DEL", k, pick(keys)}, {"EXISTS", k, pick(keys)}, {"PEXPIRE", k, pick(ttls)},
		{"INCR", k}, {"HEXISTS", k, v}, {"HGET", k, v}, {"HINCRBY", k, v, pick([]string{"1", "-1", "x"})},
		{"PTTL", k}, {"SET", k, v, "NX", "EX", "100"},
	}
	if !timed { // miniredis answers these differently from Redis (checked against redis-server only)
		cmds = append(cmds, []string{"SET", k, v, "NX", "XX"}, []string{"SET", k, v, "NX", "EX", pick([]string{"0", "x"})})
	}
	return cmds[r.IntN(len(cmds))]
}

// apply runs o on a store at node time now (ms).
func apply(s Store, nowMS int64, o op) Reply {
	now := nowMS * 1e6
	if o.script != "" {
		return s.Eval(now, scripts.All()[o.script], o.keys, o.argv)
	}
	return s.Do(now, o.args)
}

func TestNativeMatchesMiniredis(t *testing.T) {
	for seed := range uint64(120) {
		r := rand.New(rand.NewPCG(seed, 1))
		nat := NewNative()
		mini, err := NewMini(0)
		if err != nil {
			t.Fatal(err)
		}
		var now int64
		for i, o := range genOps(r, 60, true) {
			now += o.advance
			got, want := apply(nat, now, o), apply(mini, now, o)
			if !got.Equal(want) {
				t.Fatalf("seed %d step %d %v: native %v, miniredis %v", seed, i, o, got, want)
			}
			if g, w := nat.Dump(now*1e6, nil), mini.Dump(now*1e6, nil); !sameStates(g, w, 0) {
				t.Fatalf("seed %d step %d %v: state differs:\nnative    %v\nminiredis %v", seed, i, o, g, w)
			}
		}
		mini.Close()
	}
}

// TestNativeMatchesRedisServer holds Native equal to a real redis-server
// on the same operations (no simulated time: TTLs are long, and expiry
// times are compared within a second).
func TestNativeMatchesRedisServer(t *testing.T) {
	srv := redistest.Require(t, 1)
	c := redis.NewClient(&redis.Options{Addr: srv[0].Addr, Protocol: 2, DialerRetries: 1})
	defer c.Close()
	ctx := context.Background()
	for seed := range uint64(150) {
		if err := c.FlushAll(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 2))
		nat := NewNative()
		for i, o := range genOps(r, 40, false) {
			got, want := apply(nat, 0, o), realDo(ctx, c, o)
			if !loose(got).Equal(loose(want)) && !closeTTL(o, got, want) {
				t.Fatalf("seed %d step %d %v: native %v, redis-server %v", seed, i, o, got, want)
			}
		}
		if g, w := nat.Dump(0, nil), realDump(ctx, c); !sameStates(g, w, 2000) {
			t.Fatalf("seed %d: final state differs:\nnative       %v\nredis-server %v", seed, g, w)
		}
	}
}

// TestScriptsMatchMiniredis holds the Lua engine (over the native store)
// equal to miniredis on every script of scripts.All() and the commands
// beside them, with time moving; a store running them as a native node
// does (twins, guarded twins, the engine for the rest) runs the same steps
// and must agree too. Any command a script sends that the native store lacks
// fails the test (the node would leave the native store for it).
func TestScriptsMatchMiniredis(t *testing.T) {
	for seed := range uint64(150) {
		r := rand.New(rand.NewPCG(seed, 3))
		eng, nat := newEngineStore(), newTwinStore()
		mini, err := NewMini(0)
		if err != nil {
			t.Fatal(err)
		}
		var now int64
		for i, o := range genAllOps(r, 80, true) {
			now += o.advance
			got, want := apply(eng, now, o), apply(mini, now, o)
			if !got.Equal(want) {
				t.Fatalf("seed %d step %d %v: lua %v, miniredis %v", seed, i, o, got, want)
			}
			if tw := apply(nat, now, o); !tw.Equal(want) {
				t.Fatalf("seed %d step %d %v: native twin %v, miniredis %v", seed, i, o, tw, want)
			}
			if g, w := nat.Dump(now*1e6, nil), mini.Dump(now*1e6, nil); !sameStates(g, w, 0) {
				t.Fatalf("seed %d step %d %v: state differs:\ntwins     %v\nminiredis %v", seed, i, o, g, w)
			}
			if g, w := eng.Dump(now*1e6, nil), mini.Dump(now*1e6, nil); !sameStates(g, w, 0) {
				t.Fatalf("seed %d step %d %v: state differs:\nlua       %v\nminiredis %v", seed, i, o, g, w)
			}
		}
		if len(eng.unsupported) > 0 {
			t.Fatalf("seed %d: scripts sent commands the native store lacks: %v", seed, eng.unsupported)
		}
		mini.Close()
	}
}

// TestScriptsMatchRedisServer holds the Lua engine, and the store running
// scripts as a native node does (twins first), equal to a real
// redis-server on every script of scripts.All() (no simulated time: long
// TTLs, expiry times compared within 2s; the order of set members, which
// Redis leaves to its hash tables, is not compared).
func TestScriptsMatchRedisServer(t *testing.T) {
	srv := redistest.Require(t, 1)
	c := redis.NewClient(&redis.Options{Addr: srv[0].Addr, Protocol: 2, DialerRetries: 1})
	defer c.Close()
	ctx := context.Background()
	for seed := range uint64(150) {
		if err := c.FlushAll(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 4))
		eng, tw := newEngineStore(), newTwinStore()
		for i, o := range genAllOps(r, 50, false) {
			got, twin, want := apply(eng, 0, o), apply(tw, 0, o), realDo(ctx, c, o)
			if !realEqual(o, got, want) {
				t.Fatalf("seed %d step %d %v: lua %v, redis-server %v", seed, i, o, got, want)
			}
			if !realEqual(o, twin, want) {
				t.Fatalf("seed %d step %d %v: twins %v, redis-server %v", seed, i, o, twin, want)
			}
		}
		real := realDump(ctx, c)
		if g := eng.Dump(0, nil); !sameStates(g, real, 2000) {
			t.Fatalf("seed %d: final state differs:\nlua          %v\nredis-server %v", seed, g, real)
		}
		if g := tw.Dump(0, nil); !sameStates(g, real, 2000) {
			t.Fatalf("seed %d: final state differs:\ntwins        %v\nredis-server %v", seed, g, real)
		}
		if len(eng.unsupported) > 0 {
			t.Fatalf("seed %d: scripts sent commands the native store lacks: %v", seed, eng.unsupported)
		}
	}
}

// realEqual compares a reply with redis-server's as far as a real server
// allows: status as bulk, TTLs rounded, set members unordered.
func realEqual(o op, got, want Reply) bool {
	return unordered(o, roundTTLs(o, loose(got))).Equal(unordered(o, roundTTLs(o, loose(want)))) || closeTTL(o, got, want)
}

// loose maps status replies to bulk: go-redis does not tell them apart.
func loose(r Reply) Reply {
	if r.Kind == KindStatus {
		r.Kind = KindBulk
	}
	return r
}

func closeTTL(o op, a, b Reply) bool {
	if heldForReply[o.script] { // a refusal's minus PTTL, first in an array
		if a.Kind == KindArray && b.Kind == KindArray && len(a.Arr) == len(b.Arr) && len(a.Arr) > 0 &&
			slices.EqualFunc(a.Arr[1:], b.Arr[1:], Reply.Equal) {
			a, b = a.Arr[0], b.Arr[0]
		}
		return a.Kind == KindInt && b.Kind == KindInt && a.Int < 0 && b.Int < 0 && a.Int-b.Int < 2000 && b.Int-a.Int < 2000
	}
	return o.script == "" && o.args[0] == "PTTL" && a.Kind == KindInt && b.Kind == KindInt &&
		a.Int > 0 && b.Int > 0 && a.Int-b.Int < 2000 && b.Int-a.Int < 2000
}

func realDo(ctx context.Context, c *redis.Client, o op) Reply {
	var cmd *redis.Cmd
	if o.script != "" {
		args := make([]any, len(o.argv))
		for i, a := range o.argv {
			args[i] = a
		}
		cmd = c.Eval(ctx, scripts.All()[o.script], o.keys, args...)
	} else {
		args := make([]any, len(o.args))
		for i, a := range o.args {
			args[i] = a
		}
		cmd = c.Do(ctx, args...)
	}
	return fromGoRedis(cmd.Val(), cmd.Err())
}

func fromGoRedis(v any, err error) Reply {
	switch {
	case v == nil && err == nil:
		return Nil()
	case err == redis.Nil:
		return Nil()
	case err != nil:
		return Error(err.Error())
	}
	switch x := v.(type) {
	case int64:
		return Int(x)
	case string:
		return Bulk(x)
	case []any:
		out := make([]Reply, len(x))
		for i, e := range x {
			out[i] = fromGoRedis(e, nil)
		}
		return Array(out...)
	}
	return Error(fmt.Sprintf("ERR unexpected %T", v))
}

func realDump(ctx context.Context, c *redis.Client) []KeyState {
	keys, _ := c.Keys(ctx, "*").Result()
	sort.Strings(keys)
	var out []KeyState
	for _, k := range keys {
		st := KeyState{Key: k, Type: c.Type(ctx, k).Val()}
		switch st.Type {
		case "string":
			st.Str = c.Get(ctx, k).Val()
		case "hash":
			for f, v := range c.HGetAll(ctx, k).Val() {
				st.Fields = append(st.Fields, [2]string{f, v})
			}
			st.Fields = sortedPairs(st.Fields)
		case "set":
			st.Members = sortedUnique(c.SMembers(ctx, k).Val())
		case "list":
			st.Members = c.LRange(ctx, k, 0, -1).Val()
		case "zset":
			for _, z := range c.Do(ctx, "ZRANGE", k, "0", "-1", "WITHSCORES").Val().([]any) {
				st.Members = append(st.Members, z.(string)) // member, score, ... as Native's Fields
			}
			for i := 0; i+1 < len(st.Members); i += 2 {
				st.Fields = append(st.Fields, [2]string{st.Members[i], st.Members[i+1]})
			}
			st.Members, st.Fields = nil, sortedPairs(st.Fields)
		}
		if ttl := c.PTTL(ctx, k).Val(); ttl > 0 {
			st.ExpireAt = ttl.Milliseconds() // relative: compared within a tolerance
		}
		out = append(out, st)
	}
	return out
}

// sameStates compares dumps, ignoring "none" entries; expiry times must be
// within tol ms (and both set or both unset).
func sameStates(a, b []KeyState, tol int64) bool {
	a, b = present(a), present(b)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Key != y.Key || x.Type != y.Type || x.Str != y.Str || fmt.Sprint(x.Fields) != fmt.Sprint(y.Fields) ||
			fmt.Sprint(x.Members) != fmt.Sprint(y.Members) {
			return false
		}
		if (x.ExpireAt == 0) != (y.ExpireAt == 0) || x.ExpireAt-y.ExpireAt > tol || y.ExpireAt-x.ExpireAt > tol {
			if tol == 0 || (x.ExpireAt == 0) != (y.ExpireAt == 0) {
				return false
			}
		}
	}
	return true
}

func present(ks []KeyState) []KeyState {
	var out []KeyState
	for _, k := range ks {
		if k.Type != "none" {
			out = append(out, k)
		}
	}
	return out
}

// TestNativeScriptsAreCurrent fails when a script the native store
// implements has changed in package locks (its implementation is then
// unbound and the node falls back to miniredis): update native_scripts.go,
// and the differential tests check the new version.
func TestNativeScriptsAreCurrent(t *testing.T) {
	all := scripts.All()
	for name := range nativeByName {
		src, ok := all[name]
		if !ok {
			t.Errorf("native script %q is not in scripts.All() any more", name)
			continue
		}
		if s, ok := nativeScripts[SHA1(src)]; !ok || s.name != name {
			t.Errorf("native script %q is not bound to the current source (sha %s)", name, SHA1(src))
		}
	}
	var viaMini []string
	for name := range all {
		if _, ok := nativeByName[name]; !ok {
			viaMini = append(viaMini, name)
		}
	}
	sort.Strings(viaMini)
	t.Logf("scripts run by miniredis (no native implementation): %s", strings.Join(viaMini, ", "))
}
