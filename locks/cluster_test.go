package locks_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/childproc"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// startCluster starts a 3-master Redis Cluster on loopback for t and stops
// it when t ends; it skips t without redis-server and redis-cli.
func startCluster(t *testing.T) *redis.ClusterClient {
	t.Helper()
	redistest.Require(t, 0)
	if _, err := exec.LookPath("redis-cli"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-cli not found on PATH, and CI=true requires the Cluster tests to run (it comes with redis-server)")
		}
		t.Skip("redis-cli not installed")
	}
	var addrs []string
	for i := range 3 {
		port := freePort(t)
		dir := t.TempDir()
		cmd := exec.Command("redis-server", "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
			"--cluster-enabled", "yes", "--cluster-config-file", filepath.Join(dir, "nodes.conf"),
			"--save", "", "--appendonly", "no", "--dir", dir, "--protected-mode", "no", "--loglevel", "warning")
		if err := childproc.Start(cmd); err != nil {
			t.Fatalf("start cluster node %d: %v", i, err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		addrs = append(addrs, net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	}
	for _, a := range addrs {
		waitPing(t, a)
	}
	create := exec.Command("redis-cli", append(append([]string{"--cluster", "create"}, addrs...), "--cluster-yes")...)
	if out, err := childproc.CombinedOutput(create); err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs, DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { c.Close() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		info, _ := c.ClusterInfo(context.Background()).Result()
		if strings.Contains(info, "cluster_state:ok") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("cluster not ok after 20s: %s", info)
		}
		time.Sleep(100 * time.Millisecond) // real time: real cluster nodes agreeing on their slots
	}
	return c
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitPing(t *testing.T, addr string) {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: addr, DialerRetries: 1, MaxRetries: -1, ContextTimeoutEnabled: true})
	defer c.Close()
	for deadline := time.Now().Add(10 * time.Second); c.Ping(context.Background()).Err() != nil; {
		if time.Now().After(deadline) {
			t.Fatalf("cluster node %s does not answer PING", addr)
		}
		time.Sleep(20 * time.Millisecond) // real time: a real redis-server starting
	}
}

// TestMisuseOnCluster: on a 3-master Cluster, where the keys of different
// locks live in different slots, every pattern takes and gives back its
// lock with the scripts as they now are (entries, probe, fenced undo), and
// a lease of a lock on another key is refused without touching either
// key; a Fenced acquisition whose counter cannot be incremented leaves no
// lock key in its slot.
func TestMisuseOnCluster(t *testing.T) {
	c := startCluster(t)
	ctx := context.Background()
	o := locks.Options{TTL: 10 * time.Second, Retry: locks.Retry{Attempts: 1}}
	for _, tc := range []struct {
		name string
		new  func(key string) (locks.Locker, error)
	}{
		{"Basic", func(k string) (locks.Locker, error) { return locks.NewBasic(c, k, o) }},
		{"Reentrant", func(k string) (locks.Locker, error) { return locks.NewReentrant(c, k, o) }},
		{"Watchdog", func(k string) (locks.Locker, error) { return locks.NewWatchdog(c, k, o) }},
		{"Service", func(k string) (locks.Locker, error) { return locks.NewService(c, k, o) }},
		{"Fenced", func(k string) (locks.Locker, error) { return locks.NewFenced(c, k, o) }},
		{"Fair", func(k string) (locks.Locker, error) { return locks.NewFair(c, k, o) }},
		{"Semaphore", func(k string) (locks.Locker, error) { return locks.NewSemaphore(c, k, 1, o) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := "cl:"+tc.name+":a", "cl:"+tc.name+":b"
			la, lb := extMustT(t)(tc.new(a)), extMustT(t)(tc.new(b))
			leaseA, err := la.Acquire(ctx)
			if err != nil {
				t.Fatalf("Acquire(%s) = %v", a, err)
			}
			leaseB, err := lb.Acquire(ctx)
			if err != nil {
				t.Fatalf("Acquire(%s) = %v", b, err)
			}
			if err := la.Release(ctx, leaseB); !errors.Is(err, locks.ErrNotHeld) {
				t.Errorf("Release(%s) of %s's lease = %v, want ErrNotHeld", a, b, err)
			}
			rival := extMustT(t)(tc.new(b))
			if _, err := rival.Acquire(ctx); err == nil || !errors.Is(err, locks.ErrNotAcquired) {
				t.Errorf("Acquire(%s) after the foreign release = %v, want ErrNotAcquired", b, err)
			}
			for _, p := range []struct {
				l     locks.Locker
				lease *locks.Lease
			}{{la, leaseA}, {lb, leaseB}} {
				if err := p.l.Release(ctx, p.lease); err != nil {
					t.Errorf("Release = %v", err)
				}
			}
		})
	}
	t.Run("FencedBadCounter", func(t *testing.T) {
		name := "cl:badcounter"
		if err := c.Set(ctx, locks.FencedCounterKey(name), "x", 0).Err(); err != nil {
			t.Fatal(err)
		}
		f := extMustT(t)(locks.NewFenced(c, name, o))
		if _, err := f.Acquire(ctx); !errors.Is(err, locks.ErrPermanent) {
			t.Errorf("Acquire with a non-integer counter = %v, want ErrPermanent", err)
		}
		if n := c.Exists(ctx, locks.FencedLockKey(name)).Val(); n != 0 {
			t.Errorf("EXISTS %s = %d, want 0", locks.FencedLockKey(name), n)
		}
	})
}

// extMustT returns a helper that fails t on a constructor error.
func extMustT(t *testing.T) func(locks.Locker, error) locks.Locker {
	return func(l locks.Locker, err error) locks.Locker {
		t.Helper()
		if err != nil {
			t.Fatal(fmt.Errorf("New: %w", err))
		}
		return l
	}
}
