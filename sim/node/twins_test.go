package node

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks/lockstest/redistest"
	"github.com/locksim/locksim/locks/scripts"
	"github.com/locksim/locksim/sim/sched"
)

// twinStore runs a script as a native node does: by its twin, else by its
// guarded twin if that takes the input, else on the Lua engine over the
// same native store. It counts, per script, the calls each guarded twin
// took and declined, and the keys the last script wrote.
type twinStore struct {
	*Native
	e        *luaEngine
	took     map[string]int
	declined map[string]int
	written  []string
}

func newTwinStore() *twinStore {
	return &twinStore{Native: NewNative(), e: newLuaEngine(), took: map[string]int{}, declined: map[string]int{}}
}

func (s *twinStore) Eval(now int64, src string, keys, args []string) Reply {
	sha := sha1hex(src)
	if s.KnowsScript(sha, len(keys), len(args)) {
		s.written = keys
		return s.EvalSHA(now, sha, keys, args)
	}
	name := ScriptName(sha)
	if r, w, ok := s.tryTwin(now, sha, keys, args, false); ok {
		s.took[name]++
		s.written = w
		return r
	}
	if _, ok := guardedByName[name]; ok {
		s.declined[name]++
	}
	var r Reply
	r, s.written = engineRun(s.e, s.Native, now, sha, src, keys, args)
	return r
}

// engineRun runs a script on a Lua engine over a native store and returns
// the keys it wrote, as Node.runLua lists them.
func engineRun(e *luaEngine, n *Native, now int64, sha, src string, keys, args []string) (Reply, []string) {
	var written []string
	r := e.Run(sha, src, keys, args, false, func(a []string, c *cmdInfo) Reply {
		r := n.Do(now, a)
		if !r.IsError() && !c.readOnly {
			written = append(written, writtenKeys(c.name, a)...)
		}
		return r
	})
	return r, written
}

// sameReply is Reply.Equal that also compares error texts.
func sameReply(a, b Reply) bool {
	if a.Kind != b.Kind || a.Int != b.Int || a.Str != b.Str || len(a.Arr) != len(b.Arr) {
		return false
	}
	for i := range a.Arr {
		if !sameReply(a.Arr[i], b.Arr[i]) {
			return false
		}
	}
	return true
}

// TestGuardedTwinsMatchEngine runs every script of scripts.All() and
// the commands beside them on two native stores, one with every script on
// the Lua engine and one as a node runs them (twins first): the replies
// (error texts included), the states (expiry times to the millisecond) and
// the keys each script wrote must be the same at every step (the twins of
// native_scripts.go word their errors as the failing command does, without
// the script's line: there the error kinds must agree), timed (short
// TTLs, time moving) and not, over calls shaped as the patterns make them
// and over the all-scripts generator's. Every guarded twin must have taken
// calls.
func TestGuardedTwinsMatchEngine(t *testing.T) {
	took := map[string]int{}
	declined := map[string]int{}
	for _, timed := range []bool{true, false} {
		for seed := range uint64(400) {
			ts := guardedRun(t, seed, timed, seed%2 == 0)
			for name, c := range ts.took {
				took[name] += c
			}
			for name, c := range ts.declined {
				declined[name] += c
			}
		}
	}
	for name := range guardedByName {
		if took[name] == 0 {
			t.Errorf("guarded twin %s took no call (declined %d)", name, declined[name])
		}
		t.Logf("%s: took %d, declined %d", name, took[name], declined[name])
	}
}

// guardedRun runs one seed's steps: the patterns' shapes or, if !shaped,
// the all-scripts generator's.
func guardedRun(t *testing.T, seed uint64, timed, shaped bool) *twinStore {
	r := rand.New(rand.NewPCG(seed, 5))
	eng, tw := NewNative(), newTwinStore()
	e := newLuaEngine()
	ops := genAllOps(r, 80, timed)
	if shaped {
		ops = genPatternOps(r, 120, timed)
	}
	var now int64
	for i, o := range ops {
		now += o.advance
		var want Reply
		var wrote []string
		if o.script != "" {
			src := scripts.All()[o.script]
			want, wrote = engineRun(e, eng, now*1e6, sha1hex(src), src, o.keys, o.argv)
		} else {
			want = eng.Do(now*1e6, o.args)
		}
		got := apply(tw, now, o)
		if _, old := nativeByName[o.script]; old && got.Equal(want) {
			// the twins of native_scripts.go answer errors in the command's own words
		} else if !sameReply(got, want) {
			t.Fatalf("seed %d timed %v step %d %v: twin %v, engine %v", seed, timed, i, o, got, want)
		}
		if _, guarded := guardedByName[o.script]; guarded && !sameKeys(tw.written, wrote) {
			t.Fatalf("seed %d timed %v step %d %v: twin wrote %q, engine %q", seed, timed, i, o, tw.written, wrote)
		}
		if g, w := tw.Dump(now*1e6, nil), eng.Dump(now*1e6, nil); !sameStates(g, w, 0) {
			t.Fatalf("seed %d timed %v step %d %v: state differs:\ntwin   %v\nengine %v", seed, timed, i, o, g, w)
		}
	}
	return tw
}

// sameKeys compares the keys two runs wrote as replication ships them
// (sorted, once each), and whether they wrote any.
func sameKeys(a, b []string) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	return slices.Equal(sortedUnique(slices.Clone(a)), sortedUnique(slices.Clone(b)))
}

// genPatternOps draws n steps shaped as the patterns send them: each
// script with its pattern's own key layout (distinct keys, member and wake
// prefixes in the lock's hash tag), a few tokens, owners and entries, so
// that queues, readers and permits fill, expire and drain; with, now and
// then, a command that disturbs them (a member key deleted, a key of the
// wrong type) and the scripts that have no guarded twin.
func genPatternOps(r *rand.Rand, n int, timed bool) []op {
	g := &gen{r: r, timed: timed}
	out := make([]op, n)
	for i := range out {
		var o op
		if timed && r.IntN(3) == 0 {
			o.advance = 10 * int64(r.IntN(40))
		}
		if r.IntN(10) == 0 {
			o.args = g.pick2(
				[]string{"DEL", "{f}:w:" + g.tok()}, []string{"DEL", "{s}:p:" + g.tok()},
				[]string{"DEL", "{w}:r:" + g.tok()}, []string{"SET", g.pick("{f}:q", "{w}:readers", "{s}:permits", "{v}:lock"), "x"},
				[]string{"DEL", g.pick("{f}:q", "{f}:lock", "{w}:readers", "{w}:intent", "{s}:permits", "{v}:lock")},
				[]string{"SET", "{v}:fence", g.pick("x", "4503599627370496")}, []string{"SET", "{f}:t", "4503599627370495"},
				[]string{"SET", "{f}:wake:" + g.tok(), "x"}, []string{"HINCRBY", "{v}:lock", "@", "1"},
				[]string{"SET", "{s}:size", g.pick("2", "3", "x", "0")}, []string{"DEL", "{s}:size"},
				[]string{"SET", "{s}:p:" + g.tok(), g.pick("2", "x")},
				[]string{"HINCRBY", g.pick("{f}:lock", "{w}:writer", "{w}:intent"), "x", "1"})
		} else {
			o.script, o.keys, o.argv = patternCall(g)
		}
		out[i] = o
	}
	return out
}

func (g *gen) pick2(xs ...[]string) []string { return xs[g.r.IntN(len(xs))] }

// patternCall draws one script call as its pattern makes it.
func patternCall(g *gen) (string, []string, []string) {
	tok, ttl := g.tok(), g.validTTL()
	fair := []string{"{f}:lock", "{f}:q", "{f}:t"}
	rw := []string{"{w}:writer", "{w}:readers", "{w}:intent"}
	switch g.r.IntN(12) {
	case 0:
		return "sem_acquire", []string{"{s}:permits", "{s}:size"}, []string{tok, ttl, g.pick("1", "2", "2", "3"), "{s}:p:", g.pick("1", "1", "2")}
	case 1:
		return "member_release", []string{g.pick("{s}:permits", "{w}:readers")}, []string{tok, g.pick("{s}:p:", "{w}:r:")}
	case 2:
		return "member_extend", []string{"{s}:permits"}, []string{tok, ttl, "{s}:p:"}
	case 3:
		return "rw_rlock", rw, []string{tok, ttl, "{w}:r:"}
	case 4:
		return "rw_lock", rw, []string{tok, ttl, g.validTTL(), "{w}:r:"}
	case 5:
		return "rw_wleave", []string{"{w}:writer", "{w}:intent"}, []string{tok}
	case 6, 7:
		if g.r.IntN(2) == 0 {
			fair = append(fair, "{f}:fence")
		}
		return "fair_acquire", fair, []string{tok, ttl, g.validTTL(), "{f}:w:"}
	case 8:
		return "fair_release", fair[:2], []string{tok, "{f}:w:", "{f}:wake:", ttl}
	case 9:
		return "fair_leave", fair[:2], []string{tok, "{f}:w:", "{f}:wake:", ttl}
	case 10:
		return "reentrant_fenced_acquire", []string{"{v}:lock", "{v}:fence"}, []string{tok, ttl, g.entry()}
	}
	return "reentrant_release", []string{"{v}:lock"}, []string{tok, ttl, g.entry()}
}

// TestGuardedTwinsMatchRedisServer runs the pattern-shaped steps on a real
// redis-server and on a store running scripts as a native node does
// (long TTLs, no simulated time: members leave by the disturbing DELs).
func TestGuardedTwinsMatchRedisServer(t *testing.T) {
	srv := redistest.Require(t, 1)
	c := redis.NewClient(&redis.Options{Addr: srv[0].Addr, Protocol: 2, DialerRetries: 1})
	defer c.Close()
	ctx := context.Background()
	took := 0
	for seed := range uint64(100) {
		if err := c.FlushAll(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 6))
		tw := newTwinStore()
		for i, o := range genPatternOps(r, 120, false) {
			got, want := apply(tw, 0, o), realDo(ctx, c, o)
			if !realEqual(o, got, want) {
				t.Fatalf("seed %d step %d %v: twins %v, redis-server %v", seed, i, o, got, want)
			}
		}
		if g, w := tw.Dump(0, nil), realDump(ctx, c); !sameStates(g, w, 2000) {
			t.Fatalf("seed %d: final state differs:\ntwins        %v\nredis-server %v", seed, g, w)
		}
		for _, n := range tw.took {
			took += n
		}
	}
	if took == 0 {
		t.Fatal("no guarded twin took a call")
	}
}

// TestReadOnlyScriptCallRefusesWrites runs writing scripts by EVALSHA_RO
// on a native node: every one of them, twin or guarded twin or neither,
// must fail as on the engine (and redis-server) and leave the keys as
// they were.
func TestReadOnlyScriptCallRefusesWrites(t *testing.T) {
	calls := []struct {
		name string
		keys []string
		argv []string
	}{
		{"release", []string{"k"}, []string{"tok"}},
		{"extend", []string{"k"}, []string{"tok", "5000"}},
		{"redlock_acquire", []string{"free"}, []string{"tok", "5000"}},
		{"sem_acquire", []string{"{s}:permits", "{s}:size"}, []string{"tok", "5000", "2", "{s}:p:", "1"}},
	}
	for _, c := range calls {
		n, err := New(Config{Name: "n1", Backend: BackendNative}, sched.New())
		if err != nil {
			t.Fatal(err)
		}
		n.Exec([]string{"SET", "k", "tok"})
		sha := n.Exec([]string{"SCRIPT", "LOAD", scripts.All()[c.name]}).Str
		args := append(append([]string{"EVALSHA_RO", sha, strconv.Itoa(len(c.keys))}, c.keys...), c.argv...)
		r := n.Exec(args)
		if !r.IsError() || !strings.Contains(r.Str, "Write commands are not allowed from read-only scripts") {
			t.Errorf("EVALSHA_RO %s = %v, want the read-only script error", c.name, r)
		}
		// Peek sorts: free, k, {s}:permits.
		if got := n.Peek([]string{"k", "free", "{s}:permits"}); got[1].Str != "tok" || got[1].ExpireAt != 0 || got[0].Type != "none" || got[2].Type != "none" {
			t.Errorf("EVALSHA_RO %s changed the keys: %v", c.name, got)
		}
		n.Close()
	}
}
