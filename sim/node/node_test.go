package node

import (
	"fmt"
	"testing"
	"time"

	"github.com/locksim/locksim/locks/scripts"
	"github.com/locksim/locksim/sim/sched"
	"github.com/locksim/locksim/sim/vclock"
)

// at moves the scheduler to true time t (ms).
func at(t *testing.T, s *sched.Sched, ms int64) {
	t.Helper()
	s.At(ms*1e6, func() {})
	if err := s.RunUntil(ms * 1e6); err != nil {
		t.Fatal(err)
	}
}

func newNode(t *testing.T, s *sched.Sched, cfg Config) *Node {
	t.Helper()
	if cfg.Name == "" {
		cfg.Name = "n1"
	}
	n, err := New(cfg, s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Close)
	return n
}

func exec(n *Node, args ...string) Reply { return n.Exec(args) }

func want(t *testing.T, what string, got Reply, w Reply) {
	t.Helper()
	if !got.Equal(w) || got.Kind != w.Kind {
		t.Errorf("%s = %v, want %v", what, got, w)
	}
}

func TestScriptCacheAndNoScript(t *testing.T) {
	s := sched.New()
	n := newNode(t, s, Config{})
	src := scripts.All()["release"]
	sha := SHA1(src)
	want(t, "EVALSHA before EVAL", exec(n, "EVALSHA", sha, "1", "k", "a"), errNoScript)
	if r := exec(n, "EVALSHA", sha, "1", "k", "a"); r.Str != errNoScript.Str {
		t.Errorf("NOSCRIPT reply %q, want %q (go-redis falls back to EVAL on this prefix)", r.Str, errNoScript.Str)
	}
	want(t, "EVAL", exec(n, "EVAL", src, "1", "k", "a"), Int(0))
	want(t, "SET", exec(n, "SET", "k", "a", "NX", "PX", "100"), Status("OK"))
	want(t, "EVALSHA after EVAL", exec(n, "EVALSHA", sha, "1", "k", "a"), Int(1))
	want(t, "SCRIPT EXISTS", exec(n, "SCRIPT", "EXISTS", sha, "00"), Array(Int(1), Int(0)))
	n.Crash()
	n.Restart(true)
	want(t, "EVALSHA after a restart", exec(n, "EVALSHA", sha, "1", "k", "a"), errNoScript)
}

func TestUnknownScriptRunsOnLua(t *testing.T) {
	s := sched.New()
	n := newNode(t, s, Config{})
	want(t, "SET", exec(n, "SET", "lock", "a", "PX", "100"), Status("OK"))
	want(t, "HINCRBY", exec(n, "HINCRBY", "h", "f", "3"), Int(3))
	at(t, s, 10)
	r := exec(n, "EVAL", "return redis.call('HINCRBY', KEYS[1], 'f', 1) + redis.call('PTTL', KEYS[2])", "2", "h", "lock")
	want(t, "unknown script", r, Int(4+90))
	if got := n.Stats().Backend; got != "native" {
		t.Errorf("backend after an unknown script of known commands = %q, want native", got)
	}
	at(t, s, 101)
	want(t, "GET after expiry", exec(n, "GET", "lock"), Nil())
}

// TestUnknownCommandInScriptMovesNodeToMiniredis: a script calling a
// command the native store lacks goes on on miniredis with its effects so
// far, and the node stays there.
func TestUnknownCommandInScriptMovesNodeToMiniredis(t *testing.T) {
	s := sched.New()
	n := newNode(t, s, Config{})
	want(t, "SET", exec(n, "SET", "lock", "a", "PX", "100"), Status("OK"))
	at(t, s, 10)
	src := "redis.call('HINCRBY', KEYS[1], 'f', 1) redis.call('APPEND', 'l', 'xy') " +
		"return redis.call('HINCRBY', KEYS[1], 'f', 1) + redis.call('STRLEN', 'l') + redis.call('PTTL', KEYS[2])"
	want(t, "script with APPEND", exec(n, "EVAL", src, "2", "h", "lock"), Int(2+2+90))
	if got := n.Stats().Backend; got != "mini" {
		t.Errorf("backend after APPEND in a script = %q, want mini", got)
	}
	want(t, "the script's effects", exec(n, "HGET", "h", "f"), Bulk("2"))
	at(t, s, 101)
	want(t, "GET after expiry on miniredis", exec(n, "GET", "lock"), Nil())
}

func TestRestartWithAndWithoutPersistence(t *testing.T) {
	for _, b := range []Backend{BackendNative, BackendMini} {
		t.Run(string(b), func(t *testing.T) { testRestart(t, b) })
	}
}

func testRestart(t *testing.T, b Backend) {
	s := sched.New()
	n := newNode(t, s, Config{Backend: b})
	exec(n, "SET", "lock", "a", "PX", "100")
	exec(n, "INCR", "fence")
	n.Crash()
	at(t, s, 50)
	n.Restart(true)
	want(t, "lock after a persistent restart", exec(n, "GET", "lock"), Bulk("a"))
	want(t, "TTL counts the downtime", exec(n, "PTTL", "lock"), Int(50))
	n.Crash()
	n.Restart(false)
	want(t, "lock after a restart without persistence", exec(n, "GET", "lock"), Nil())
	want(t, "fence counter restarts", exec(n, "INCR", "fence"), Int(1))
}

func TestFailoverLosesUnreplicatedWrites(t *testing.T) {
	for _, tc := range []struct {
		failAt int64
		want   Reply
		lost   int
	}{{failAt: 50, want: Nil(), lost: 1}, {failAt: 150, want: Bulk("a"), lost: 0}} {
		t.Run(fmt.Sprint(tc.failAt), func(t *testing.T) {
			s := sched.New()
			n := newNode(t, s, Config{ReplicaDelay: 100 * time.Millisecond})
			exec(n, "SET", "lock", "a", "PX", "1000")
			at(t, s, tc.failAt)
			lost, err := n.Failover()
			if err != nil || lost != tc.lost {
				t.Fatalf("Failover() = %d, %v; want %d lost", lost, err, tc.lost)
			}
			want(t, "lock on the promoted replica", exec(n, "GET", "lock"), tc.want)
			if tc.lost == 0 {
				want(t, "its TTL", exec(n, "PTTL", "lock"), Int(1000-tc.failAt))
			}
		})
	}
}

func TestNodeClockJumpExpiresKeys(t *testing.T) {
	for _, b := range []Backend{BackendNative, BackendMini} {
		t.Run(string(b), func(t *testing.T) {
			s := sched.New()
			clk := vclock.New(0)
			n := newNode(t, s, Config{Clock: clk, Backend: b})
			exec(n, "SET", "lock", "a", "PX", "1000")
			at(t, s, 10)
			clk.Jump(2 * time.Second)
			want(t, "lock after the node's clock jumped 2s", exec(n, "GET", "lock"), Nil())
		})
	}
}

// TestReplicaFollowsAMiniredisPrimary: a script the native store does not
// know moves primary and replica to miniredis; the replica then receives
// every key the script touched, declared or not, sets included.
func TestReplicaFollowsAMiniredisPrimary(t *testing.T) {
	s := sched.New()
	n := newNode(t, s, Config{ReplicaDelay: 10 * time.Millisecond})
	exec(n, "SET", "lock", "a", "PX", "1000")
	src := "redis.call('SADD', KEYS[1], ARGV[1]); redis.call('SET', 'undeclared:' .. ARGV[1], '1', 'PX', 500); return 1"
	want(t, "script", exec(n, "EVAL", src, "1", "holders", "t1"), Int(1))
	at(t, s, 20)
	if _, err := n.Failover(); err != nil {
		t.Fatal(err)
	}
	want(t, "lock on the replica", exec(n, "GET", "lock"), Bulk("a"))
	want(t, "set member on the replica", exec(n, "EVAL", "return redis.call('SISMEMBER', KEYS[1], ARGV[1])", "1", "holders", "t1"), Int(1))
	want(t, "undeclared key's TTL on the replica", exec(n, "PTTL", "undeclared:t1"), Int(480))
}
