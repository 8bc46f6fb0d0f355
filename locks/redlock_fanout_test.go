package locks_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest"
	"github.com/locksim/locksim/locks/scripts"
)

// errReplyLost is what a spyNode whose replies are lost returns after the
// node ran the command: the outcome the client cannot know.
var errReplyLost = errors.New("reply lost")

// scriptName maps the SHA1 of each of the patterns' scripts to its name.
var scriptName = func() map[string]string {
	m := map[string]string{}
	for name, src := range scripts.All() {
		h := sha1.Sum([]byte(src))
		m[hex.EncodeToString(h[:])] = name
	}
	return m
}()

// spyNode counts the scripts a locker runs on one node, by name, and can
// lose their replies: the node runs the script, the caller gets
// errReplyLost.
type spyNode struct {
	locks.Redis
	mu    sync.Mutex
	calls map[string]int
	lose  bool
	// resend runs every acquisition twice and returns the second reply:
	// what the caller sees when its client sent the request again after
	// the first send ran (go-redis retries a command whose connection
	// failed before the reply came).
	resend bool
	slow   time.Duration // how long a release waits before it is sent
	// holdExtend is how long an extension waits before it is sent
	// (guarded by mu: set while the renewal loop runs); holding is true
	// while one waits or is being sent.
	holdExtend time.Duration
	holding    bool
}

// setHoldExtend makes the node's extensions wait d before they are sent.
func (n *spyNode) setHoldExtend(d time.Duration) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.holdExtend = d
}

// extending reports whether an extension is held back or being sent.
func (n *spyNode) extending() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.holding
}

// holdBack delays an extension by holdExtend, marking it in flight until
// done is called: a request written to the connection whose bytes are
// still on their way, which the caller's cancel no longer stops.
func (n *spyNode) holdBack() (done func()) {
	n.mu.Lock()
	d := n.holdExtend
	if d == 0 {
		n.mu.Unlock()
		return func() {}
	}
	n.holding = true
	n.mu.Unlock()
	time.Sleep(d) // real time: the renewal in flight that Release must wait for
	return func() {
		n.mu.Lock()
		n.holding = false
		n.mu.Unlock()
	}
}

func (n *spyNode) count(name string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.calls[name]++
}

// ran is how often the script name ran on the node.
func (n *spyNode) ran(name string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.calls[name]
}

func (n *spyNode) reply(c *redis.Cmd) *redis.Cmd {
	if !n.lose || c.Err() != nil {
		return c
	}
	lost := redis.NewCmd(context.Background())
	lost.SetErr(errReplyLost)
	return lost
}

func (n *spyNode) EvalSha(ctx context.Context, sha string, keys []string, args ...any) *redis.Cmd {
	if scriptName[sha] == "release" && n.slow > 0 {
		time.Sleep(n.slow) // real time: a slow node, while the locker's real-clock renewals come due
	}
	if scriptName[sha] == "redlock_extend" {
		defer n.holdBack()()
		ctx = context.WithoutCancel(ctx) // on the wire already: a cancel no longer stops it
	}
	c := n.Redis.EvalSha(ctx, sha, keys, args...)
	if n.resend && scriptName[sha] == "redlock_acquire" && c.Err() == nil {
		c = n.Redis.EvalSha(ctx, sha, keys, args...)
	}
	if c.Err() == nil || !redis.HasErrorPrefix(c.Err(), "NOSCRIPT") {
		n.count(scriptName[sha])
	}
	return n.reply(c)
}

func (n *spyNode) Eval(ctx context.Context, src string, keys []string, args ...any) *redis.Cmd {
	h := sha1.Sum([]byte(src))
	name := scriptName[hex.EncodeToString(h[:])]
	n.count(name)
	if name == "redlock_extend" {
		defer n.holdBack()()
		ctx = context.WithoutCancel(ctx)
	}
	c := n.Redis.Eval(ctx, src, keys, args...)
	if n.resend && name == "redlock_acquire" && c.Err() == nil {
		c = n.Redis.Eval(ctx, src, keys, args...)
	}
	return n.reply(c)
}

// fanOutEnv is a Redlock over five nodes of a backend, each behind a
// spyNode.
type fanOutEnv struct {
	b     lockstest.Backend
	spies []*spyNode
	rl    *locks.Redlock
}

// fanOutBackends runs f over five miniredis servers and over five real
// redis-servers (skipped without redis-server, failed under CI=true).
func fanOutBackends(t *testing.T, f func(t *testing.T, b lockstest.Backend)) {
	t.Run("miniredis", func(t *testing.T) { f(t, lockstest.StartMiniredis(t, 5)) })
	t.Run("redis-server", func(t *testing.T) { f(t, lockstest.StartRedisServers(t, 5)) })
}

func newFanOutEnv(t *testing.T, b lockstest.Backend, key string, watchdog bool, set ...func(*locks.Options)) *fanOutEnv {
	t.Helper()
	b.Reset(t)
	e := &fanOutEnv{b: b}
	var nodes []locks.Redis
	for _, r := range b.Connect(t) {
		s := &spyNode{Redis: r, calls: map[string]int{}}
		e.spies = append(e.spies, s)
		nodes = append(nodes, s)
	}
	o := locks.Options{TTL: b.TTL(), Clock: b.Clock(), NodeTimeout: b.TTL() / 2}
	for _, f := range set {
		f(&o)
	}
	var err error
	if watchdog {
		e.rl, err = locks.NewRedlockWatchdog(nodes, key, o)
	} else {
		e.rl, err = locks.NewRedlock(nodes, key, o)
	}
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// plant makes another owner hold key on the given nodes.
func (e *fanOutEnv) plant(t *testing.T, key string, nodes ...int) {
	t.Helper()
	for _, i := range nodes {
		if err := e.b.Admin(t, i).Set(context.Background(), key, "another-owner", time.Minute).Err(); err != nil {
			t.Fatalf("SET %q on node %d: %v", key, i, err)
		}
	}
}

// value is key's value on node i ("" for none).
func (e *fanOutEnv) value(t *testing.T, key string, i int) string {
	t.Helper()
	v, err := e.b.Admin(t, i).Get(context.Background(), key).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		t.Fatalf("GET %q on node %d: %v", key, i, err)
	}
	return v
}

// TestRedlockFailedAttemptReleasesWhereItMayHold: an attempt that misses
// its quorum gives its token back on the nodes that granted it and on
// those whose reply was lost (the script ran there), and sends nothing to
// the nodes that refused (another owner's key: nothing was written).
func TestRedlockFailedAttemptReleasesWhereItMayHold(t *testing.T) {
	fanOutBackends(t, func(t *testing.T, b lockstest.Backend) {
		const key = "fanout-failed"
		e := newFanOutEnv(t, b, key, false)
		e.plant(t, key, 0, 1, 2)
		e.spies[3].lose = true
		_, err := e.rl.Acquire(context.Background())
		if !errors.Is(err, locks.ErrQuorum) {
			t.Fatalf("Acquire with nodes 0..2 held by another owner = %v, want ErrQuorum", err)
		}
		for i := range 3 {
			if n := e.spies[i].ran("release"); n != 0 {
				t.Errorf("node %d (refused) ran the release %d times after the failed attempt, want 0", i, n)
			}
			if v := e.value(t, key, i); v != "another-owner" {
				t.Errorf("node %d holds %q after the failed attempt, want the other owner's key", i, v)
			}
		}
		for _, i := range []int{3, 4} { // 3: reply lost; 4: granted
			if n := e.spies[i].ran("release"); n != 1 {
				t.Errorf("node %d ran the release %d times after the failed attempt, want 1", i, n)
			}
			if v := e.value(t, key, i); v != "" {
				t.Errorf("node %d holds %q after the failed attempt, want nothing left behind", i, v)
			}
		}
	})
}

// TestRedlockResentAcquisitionIsAGrant: a node whose acquisition was sent
// twice (the first send ran, its reply was lost, the client sent it again)
// holds the attempt's own token; it answers a grant, so that an attempt
// that misses its quorum gives the token back there too instead of leaving
// it for a TTL.
func TestRedlockResentAcquisitionIsAGrant(t *testing.T) {
	fanOutBackends(t, func(t *testing.T, b lockstest.Backend) {
		const key = "fanout-resent"
		e := newFanOutEnv(t, b, key, false)
		e.plant(t, key, 0, 1, 2)
		e.spies[3].resend = true
		_, err := e.rl.Acquire(context.Background())
		if !errors.Is(err, locks.ErrQuorum) {
			t.Fatalf("Acquire with nodes 0..2 held by another owner = %v, want ErrQuorum", err)
		}
		for _, i := range []int{3, 4} { // 3: sent twice; 4: granted
			if v := e.value(t, key, i); v != "" {
				t.Errorf("node %d holds %q after the failed attempt, want nothing left behind", i, v)
			}
		}
	})
}

// TestRedlockLostExtendGivesBackWhereItMayHold: an Extend that misses its
// quorum (another owner holds a majority) gives the token back on the node
// that extended and on the node whose reply was lost, and sends nothing to
// the nodes that refused.
func TestRedlockLostExtendGivesBackWhereItMayHold(t *testing.T) {
	fanOutBackends(t, func(t *testing.T, b lockstest.Backend) {
		const key = "fanout-extend"
		e := newFanOutEnv(t, b, key, false)
		l, err := e.rl.Acquire(context.Background())
		if err != nil {
			t.Fatalf("Acquire = %v", err)
		}
		e.plant(t, key, 0, 1, 2)
		e.spies[3].lose = true
		if err := e.rl.Extend(context.Background(), l); !errors.Is(err, locks.ErrNotHeld) {
			t.Fatalf("Extend with nodes 0..2 held by another owner = %v, want ErrNotHeld", err)
		}
		for i := range 3 {
			if n := e.spies[i].ran("release"); n != 0 {
				t.Errorf("node %d (refused the extension) ran the release %d times, want 0", i, n)
			}
		}
		for _, i := range []int{3, 4} { // 3: reply lost; 4: extended
			if n := e.spies[i].ran("release"); n != 1 {
				t.Errorf("node %d ran the release %d times after the lost extension, want 1", i, n)
			}
			if v := e.value(t, key, i); v != "" {
				t.Errorf("node %d holds %q after the lost extension, want the token given back", i, v)
			}
		}
	})
}

// extends is how often the extension script ran, over all nodes.
func (e *fanOutEnv) extends() int {
	n := 0
	for _, s := range e.spies {
		n += s.ran("redlock_extend")
	}
	return n
}

// TestRedlockWatchdogRenewsNothingOnceReleaseBegins: a Redlock watchdog
// whose Release waits for a slow node sends no renewal meanwhile, so the
// renewal cannot set the key again on the nodes the release has already
// freed. Real time on both backends (miniredis's TTLs do not move in it,
// and the test ends long before the TTL).
func TestRedlockWatchdogRenewsNothingOnceReleaseBegins(t *testing.T) {
	fanOutBackends(t, func(t *testing.T, b lockstest.Backend) {
		const key = "fanout-release-renew"
		e := newFanOutEnv(t, b, key, true, func(o *locks.Options) {
			o.TTL, o.RenewEvery, o.NodeTimeout, o.Clock = 5*time.Second, 50*time.Millisecond, 2*time.Second, clock.Real{}
		})
		l, err := e.rl.Acquire(context.Background())
		if err != nil {
			t.Fatalf("Acquire = %v", err)
		}
		// Start the release right after a renewal has been answered by
		// every node, so that none is in flight when it begins (one that
		// is, Release waits for: the next test).
		for n := e.extends(); e.extends() < n+len(e.spies); {
			time.Sleep(time.Millisecond) // real time: the renewal loop runs on clock.Real
		}
		e.spies[0].slow = 300 * time.Millisecond
		before := e.extends()
		if err := e.rl.Release(context.Background(), l); err != nil {
			t.Fatalf("Release = %v", err)
		}
		if n := e.extends() - before; n != 0 {
			t.Errorf("the extension ran %d times on the nodes while Release waited for node 0, want 0", n)
		}
		for i := range e.spies {
			if v := e.value(t, key, i); v == l.Token {
				t.Errorf("node %d holds the lease's token after Release returned, want it freed", i)
			}
		}
	})
}

// TestRedlockWatchdogReleaseWaitsForARenewalInFlight: a Release that
// begins while a renewal's extension is still on its way to a node waits
// for that renewal to end before it sends, so the extension (which sets
// the key again where it is missing) cannot land after the release and
// leave the lease's token there for a TTL. Real time on both backends, as
// above.
func TestRedlockWatchdogReleaseWaitsForARenewalInFlight(t *testing.T) {
	fanOutBackends(t, func(t *testing.T, b lockstest.Backend) {
		const key = "fanout-release-inflight"
		e := newFanOutEnv(t, b, key, true, func(o *locks.Options) {
			o.TTL, o.RenewEvery, o.NodeTimeout, o.Clock = 5*time.Second, 50*time.Millisecond, 2*time.Second, clock.Real{}
		})
		l, err := e.rl.Acquire(context.Background())
		if err != nil {
			t.Fatalf("Acquire = %v", err)
		}
		e.spies[0].setHoldExtend(200 * time.Millisecond)
		for !e.spies[0].extending() {
			time.Sleep(time.Millisecond) // real time: until the next renewal reaches node 0
		}
		if err := e.rl.Release(context.Background(), l); err != nil {
			t.Fatalf("Release = %v", err)
		}
		e.spies[0].setHoldExtend(0)
		for e.spies[0].extending() {
			time.Sleep(time.Millisecond) // real time: until the held-back extension has been sent
		}
		for i := range e.spies {
			if v := e.value(t, key, i); v == l.Token {
				t.Errorf("node %d holds the lease's token after Release returned and the renewal in flight landed, want it freed", i)
			}
		}
	})
}
