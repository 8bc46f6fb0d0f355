package locks_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/childproc"
	"github.com/locksim/locksim/locks"
)

// startSentinel runs redis-server --sentinel monitoring primary as
// "mymaster" (quorum 1), stopped when the test ends, and returns its
// address once it knows one replica.
func startSentinel(t *testing.T, primary string) string {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server not found on PATH, and CI=true requires the Sentinel test to run")
		}
		t.Skip("redis-server not installed")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, port, _ := strings.Cut(addr, ":")
	host, pport, _ := strings.Cut(primary, ":")
	dir := t.TempDir()
	conf := filepath.Join(dir, "sentinel.conf")
	text := fmt.Sprintf("port %s\nbind 127.0.0.1\ndir %s\nsentinel monitor mymaster %s %s 1\n"+
		"sentinel down-after-milliseconds mymaster 1000\nsentinel failover-timeout mymaster 10000\n", port, dir, host, pport)
	if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, conf, "--sentinel")
	if err := childproc.Start(cmd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	eventually(t, 10*time.Second, "the sentinel listens", func() bool {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	sc := redis.NewSentinelClient(&redis.Options{Addr: addr, DialerRetries: 1})
	defer sc.Close()
	eventually(t, 20*time.Second, "the sentinel knows the replica", func() bool {
		rs, err := sc.Replicas(context.Background(), "mymaster").Result()
		return err == nil && len(rs) == 1
	})
	return addr
}

// eventually polls ok every 50ms until it holds, failing after limit (real
// time: real Sentinel and redis-server processes).
func eventually(t *testing.T, limit time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after %v", what, limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestWaitReplicasSentinelFailover: behind Sentinel and go-redis's
// failover client (a *redis.Client, pinned with Conn), a grant WAIT
// confirmed on the replica survives SENTINEL FAILOVER: the promoted
// replica has the lock key, a second client cannot take the lock through
// the failover client, and the first releases it on the new primary.
// SENTINEL FAILOVER waits for the replica to catch up, so this shows that
// the option works behind Sentinel (no ReplicaWaiter needed), not that it
// is needed: TestWaitReplicasFailover shows that, with a held link.
func TestWaitReplicasSentinelFailover(t *testing.T) {
	rs := startReplicaSet(t, direct)
	sentinel := startSentinel(t, rs.primary.Addr)
	ctx := context.Background()
	fc := redis.NewFailoverClient(&redis.FailoverOptions{MasterName: "mymaster", SentinelAddrs: []string{sentinel}, DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { fc.Close() })
	o := locks.Options{TTL: 30 * time.Second, WaitReplicas: 1, WaitTimeout: time.Second}
	first, err := locks.NewBasic(fc, "wait:sentinel", o)
	if err != nil {
		t.Fatal(err)
	}
	l, err := first.Acquire(ctx)
	if err != nil {
		t.Fatalf("Acquire with WaitReplicas=1 behind Sentinel = %v", err)
	}
	sc := redis.NewSentinelClient(&redis.Options{Addr: sentinel, DialerRetries: 1})
	t.Cleanup(func() { sc.Close() })
	// The sentinel promotes a replica only once it has its INFO: retry
	// while it has none it finds suitable.
	eventually(t, 30*time.Second, "SENTINEL FAILOVER is accepted", func() bool {
		err := sc.Failover(ctx, "mymaster").Err()
		if err != nil && !strings.Contains(err.Error(), "NOGOODSLAVE") {
			t.Fatalf("SENTINEL FAILOVER = %v", err)
		}
		return err == nil
	})
	eventually(t, 20*time.Second, "the replica is promoted", func() bool {
		info, err := rs.rc.Info(ctx, "replication").Result()
		return err == nil && strings.Contains(info, "role:master")
	})
	if n, err := rs.rc.Exists(ctx, "wait:sentinel").Result(); err != nil || n != 1 {
		t.Errorf("EXISTS on the promoted replica = %d, %v; want 1", n, err)
	}
	second, err := locks.NewBasic(fc, "wait:sentinel", locks.Options{TTL: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "the failover client follows the new primary", func() bool {
		_, err := second.Acquire(ctx)
		if err == nil {
			t.Fatal("a second client acquired the lock after the failover")
		}
		return errors.Is(err, locks.ErrNotAcquired)
	})
	if err := first.Release(ctx, l); err != nil {
		t.Errorf("Release on the new primary = %v", err)
	}
}
