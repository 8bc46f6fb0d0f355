package refs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks/lockstest/redistest"
	"github.com/locksim/locksim/sim/node"
	"github.com/locksim/locksim/sim/sched"
)

// The differential test of the simulator's nodes on the scripts of the
// reference libraries. Their scripts are not exported, so the libraries
// themselves are driven — against a real redis-server, through a go-redis
// client whose hook sends every command also to a simulated node (its Lua
// engine runs scripts without a native twin) and to a miniredis node; each
// reply of the two must equal redis-server's.

// mirror is a go-redis hook that replays each command on the simulated
// nodes and compares their replies with the real server's.
type mirror struct {
	t     *testing.T
	nodes map[string]*node.Node
	seen  map[string]int // commands mirrored, by name
}

func (m *mirror) DialHook(next redis.DialHook) redis.DialHook { return next }
func (m *mirror) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

func (m *mirror) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		args := make([]string, len(cmd.Args()))
		for i, a := range cmd.Args() {
			args[i] = fmt.Sprint(a)
		}
		name := strings.ToUpper(args[0])
		if name == "HELLO" || name == "CLIENT" || name == "FLUSHALL" {
			return err
		}
		want, ok := replyOf(cmd, err)
		if !ok {
			m.t.Errorf("%v: reply type %T not compared", args, cmd)
			return err
		}
		m.seen[name]++
		for backend, n := range m.nodes {
			if got := n.Exec(args); !same(got, want) {
				m.t.Errorf("%v: %s node %v, redis-server %v", args, backend, got, want)
			}
		}
		return err
	}
}

// replyOf turns the real server's reply into a node.Reply.
func replyOf(cmd redis.Cmder, err error) (node.Reply, bool) {
	switch {
	case errors.Is(err, redis.Nil):
		return node.Nil(), true
	case err != nil:
		return node.Error(err.Error()), true
	}
	switch c := cmd.(type) {
	case *redis.Cmd:
		return fromValue(c.Val()), true
	case *redis.StringCmd:
		return node.Bulk(c.Val()), true
	case *redis.StatusCmd:
		return node.Status(c.Val()), true
	case *redis.BoolCmd: // SET NX: OK or nil
		if c.Val() {
			return node.Status("OK"), true
		}
		return node.Nil(), true
	case *redis.DurationCmd: // PTTL
		return node.Int(c.Val().Milliseconds()), true
	case *redis.IntCmd:
		return node.Int(c.Val()), true
	}
	return node.Reply{}, false
}

func fromValue(v any) node.Reply {
	switch x := v.(type) {
	case nil:
		return node.Nil()
	case int64:
		return node.Int(x)
	case string:
		return node.Bulk(x)
	case []any:
		out := make([]node.Reply, len(x))
		for i, e := range x {
			out[i] = fromValue(e)
		}
		return node.Array(out...)
	}
	return node.Error(fmt.Sprintf("unexpected %T", v))
}

// same is Reply.Equal with go-redis's blind spot (status read as bulk) and
// the real server's clock (TTLs in ms, within 2s: the nodes' clocks stand
// still) allowed for.
func same(got, want node.Reply) bool {
	if got.Kind == node.KindStatus && want.Kind == node.KindBulk {
		got.Kind = node.KindBulk
	}
	if got.Kind == node.KindInt && want.Kind == node.KindInt && got.Int > 2000 && want.Int > 0 {
		return got.Int-want.Int <= 2000 && want.Int <= got.Int
	}
	return got.Equal(want)
}

func mirroredClient(t *testing.T) (*redis.Client, *mirror) {
	srv := redistest.Require(t, 1)
	c := redis.NewClient(&redis.Options{Addr: srv[0].Addr, Protocol: 2, DialerRetries: 1, DisableIdentity: true})
	t.Cleanup(func() { c.Close() })
	if err := c.FlushAll(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
	m := &mirror{t: t, nodes: map[string]*node.Node{}, seen: map[string]int{}}
	for _, b := range []node.Backend{node.BackendNative, node.BackendMini} {
		n, err := node.New(node.Config{Name: string(b), Backend: b}, sched.New())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(n.Close)
		m.nodes[string(b)] = n
	}
	c.AddHook(m)
	return c, m
}

// stayedNative fails if a script sent the simulated node to miniredis.
func stayedNative(t *testing.T, m *mirror) {
	t.Helper()
	if b := m.nodes[string(node.BackendNative)].Stats().Backend; b != string(node.BackendNative) {
		t.Errorf("the simulated node moved to %s: a script used a command the native store lacks", b)
	}
	if m.seen["EVALSHA"]+m.seen["EVAL"] == 0 {
		t.Error("no script was mirrored")
	}
	t.Logf("mirrored: %v", m.seen)
}

func TestRedislockScriptsOnSimulatedNodes(t *testing.T) {
	c, m := mirroredClient(t)
	ctx := context.Background()
	lc := redislock.New(c)
	l1, err := lc.Obtain(ctx, "rl", 10*time.Second, &redislock.Options{Metadata: "meta"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lc.Obtain(ctx, "rl", 10*time.Second, nil); !errors.Is(err, redislock.ErrNotObtained) {
		t.Errorf("second Obtain: %v, want ErrNotObtained", err)
	}
	// The same token again: obtain.lua's GETRANGE branch overrides the lock.
	if l1, err = lc.Obtain(ctx, "rl", 20*time.Second, &redislock.Options{Token: l1.Token(), Metadata: "meta"}); err != nil {
		t.Fatalf("Obtain with the holder's token: %v", err)
	}
	if ttl, err := l1.TTL(ctx); err != nil || ttl <= 0 {
		t.Errorf("TTL = %v, %v; want positive", ttl, err)
	}
	if err := l1.Refresh(ctx, 30*time.Second, nil); err != nil {
		t.Errorf("Refresh: %v", err)
	}
	if err := l1.Release(ctx); err != nil {
		t.Errorf("Release: %v", err)
	}
	if err := l1.Release(ctx); !errors.Is(err, redislock.ErrLockNotHeld) {
		t.Errorf("second Release: %v, want ErrLockNotHeld", err)
	}
	if err := l1.Refresh(ctx, time.Second, nil); !errors.Is(err, redislock.ErrNotObtained) {
		t.Errorf("Refresh after Release: %v, want ErrNotObtained", err)
	}
	if ttl, err := l1.TTL(ctx); err != nil || ttl != 0 {
		t.Errorf("TTL after Release = %v, %v; want 0", ttl, err)
	}
	c.HIncrBy(ctx, "rlh", "f", 1) // a key of the wrong type: GETRANGE fails in the script
	if _, err := lc.Obtain(ctx, "rlh", time.Second, nil); err == nil || !strings.Contains(err.Error(), "WRONGTYPE") {
		t.Errorf("Obtain on a hash: %v, want WRONGTYPE", err)
	}
	stayedNative(t, m)
}

func TestRedsyncScriptsOnSimulatedNodes(t *testing.T) {
	c, m := mirroredClient(t)
	rs := redsync.New(goredis.NewPool(c))
	mu := rs.NewMutex("rs", redsync.WithExpiry(10*time.Second), redsync.WithTries(1))
	if err := mu.Lock(); err != nil {
		t.Fatal(err)
	}
	if err := rs.NewMutex("rs", redsync.WithTries(1)).TryLock(); err == nil {
		t.Error("a second mutex took a held lock")
	}
	if ok, err := mu.Extend(); !ok || err != nil {
		t.Errorf("Extend = %v, %v", ok, err)
	}
	if ok, err := mu.Valid(); !ok || err != nil {
		t.Errorf("Valid = %v, %v", ok, err)
	}
	if ok, err := mu.Unlock(); !ok || err != nil {
		t.Errorf("Unlock = %v, %v", ok, err)
	}
	if ok, _ := mu.Unlock(); ok { // deleteScript's -1: the key is gone
		t.Error("a second Unlock succeeded")
	}
	if ok, _ := mu.Extend(); ok {
		t.Error("Extend after Unlock succeeded")
	}
	nx := rs.NewMutex("rs2", redsync.WithExpiry(10*time.Second), redsync.WithTries(1), redsync.WithSetNXOnExtend())
	if err := nx.Lock(); err != nil {
		t.Fatal(err)
	}
	if ok, err := nx.Unlock(); !ok || err != nil {
		t.Errorf("Unlock = %v, %v", ok, err)
	}
	if ok, err := nx.Extend(); !ok || err != nil { // touchWithSetNX takes the free key again
		t.Errorf("Extend with SetNX after Unlock = %v, %v; want true", ok, err)
	}
	stayedNative(t, m)
}
