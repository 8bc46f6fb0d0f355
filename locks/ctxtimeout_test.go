package locks_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// constructors builds every pattern on r (Redlock on r and two more
// distinct clients).
func constructors(t *testing.T, r locks.Redis, o locks.Options) map[string]error {
	t.Helper()
	var more []locks.Redis
	for i := range 2 {
		c := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", i+1), ContextTimeoutEnabled: true})
		t.Cleanup(func() { c.Close() })
		more = append(more, c)
	}
	nodes := append([]locks.Redis{r}, more...)
	return map[string]error{
		"Basic":           errOf(locks.NewBasic(r, "k", o)),
		"Watchdog":        errOf(locks.NewWatchdog(r, "k", o)),
		"Fenced":          errOf(locks.NewFenced(r, "k", o)),
		"Reentrant":       errOf(locks.NewReentrant(r, "k", o)),
		"Service":         errOf(locks.NewService(r, "k", o)),
		"Fair":            errOf(locks.NewFair(r, "k", o)),
		"RWLock":          errOf(locks.NewRWLock(r, "k", o)),
		"Semaphore":       errOf(locks.NewSemaphore(r, "k", 2, o)),
		"MultiLock":       errOf(locks.NewMultiLock(r, []string{"{m}:a", "{m}:b"}, o)),
		"Redlock":         errOf(locks.NewRedlock(nodes, "k", o)),
		"RedlockWatchdog": errOf(locks.NewRedlockWatchdog(nodes, "k", o)),
	}
}

// TestConstructorsRefuseContextTimeoutDisabled: every constructor refuses a
// go-redis client — plain, failover, cluster or ring — whose options leave
// ContextTimeoutEnabled false, with an *OptionError naming the field and
// how to set it (it was accepted, and then a hung server held every call
// past its context: see TestContextDeadlineBoundsAHungServer); it takes the
// same client with ContextTimeoutEnabled, and the plain one when
// Options.AllowContextTimeoutDisabled says so.
func TestConstructorsRefuseContextTimeoutDisabled(t *testing.T) {
	o := locks.Options{TTL: time.Second}
	clients := map[string]func(enabled bool) locks.Redis{
		"Client": func(on bool) locks.Redis {
			return redis.NewClient(&redis.Options{Addr: "127.0.0.1:10", ContextTimeoutEnabled: on})
		},
		"FailoverClient": func(on bool) locks.Redis {
			return redis.NewFailoverClient(&redis.FailoverOptions{MasterName: "m", SentinelAddrs: []string{"127.0.0.1:11"}, ContextTimeoutEnabled: on})
		},
		"ClusterClient": func(on bool) locks.Redis {
			return redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"127.0.0.1:12"}, ContextTimeoutEnabled: on})
		},
		"Ring": func(on bool) locks.Redis {
			return redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"a": "127.0.0.1:13"}, ContextTimeoutEnabled: on})
		},
	}
	for kind, mk := range clients {
		t.Run(kind, func(t *testing.T) {
			off, on := mk(false), mk(true)
			t.Cleanup(func() { closeRedis(off); closeRedis(on) })
			for name, err := range constructors(t, off, o) {
				var oe *locks.OptionError
				if !errors.As(err, &oe) || !strings.HasSuffix(oe.Field, ".ContextTimeoutEnabled") || !strings.Contains(err.Error(), "ContextTimeoutEnabled: true") {
					t.Errorf("New%s(%s without ContextTimeoutEnabled) = %v, want an *OptionError on ContextTimeoutEnabled saying to set it", name, kind, err)
				}
			}
			for name, err := range constructors(t, on, o) {
				if err != nil {
					t.Errorf("New%s(%s with ContextTimeoutEnabled) = %v, want nil", name, kind, err)
				}
			}
			allow := o
			allow.AllowContextTimeoutDisabled = true
			for name, err := range constructors(t, off, allow) {
				if err != nil {
					t.Errorf("New%s(%s without ContextTimeoutEnabled, AllowContextTimeoutDisabled) = %v, want nil", name, kind, err)
				}
			}
		})
	}
}

func closeRedis(r locks.Redis) {
	if c, ok := r.(interface{ Close() error }); ok {
		_ = c.Close()
	}
}

// TestContextDeadlineBoundsAHungServer: on a client the constructors take
// (ContextTimeoutEnabled), a hung redis-server (SIGSTOP) holds Basic's
// Acquire no longer than its context, and one black-holed node of three
// holds a Redlock Acquire no longer than NodeTimeout: it takes the other
// two. (With go-redis's defaults, which the constructors now refuse, the
// same calls waited out the 3s ReadTimeout and its retries.)
func TestContextDeadlineBoundsAHungServer(t *testing.T) {
	const slack = time.Second
	t.Run("Basic", func(t *testing.T) {
		// Require skips without redis-server and fails under CI=true; the
		// SIGCONT, registered after its Stop, runs before it.
		srv := redistest.Require(t, 1)[0]
		t.Cleanup(func() { _ = syscall.Kill(srv.Pid(), syscall.SIGCONT) })
		rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, DialerRetries: 1, ContextTimeoutEnabled: true})
		t.Cleanup(func() { rdb.Close() })
		b, err := locks.NewBasic(rdb, "hung", locks.Options{TTL: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if err := rdb.Ping(t.Context()).Err(); err != nil { // a pooled connection, before the hang
			t.Fatal(err)
		}
		if err := syscall.Kill(srv.Pid(), syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		const within = 500 * time.Millisecond
		ctx, cancel := context.WithTimeout(t.Context(), within)
		defer cancel()
		start := time.Now()
		_, err = b.Acquire(ctx)
		took := time.Since(start)
		if err == nil || took > within+slack {
			t.Errorf("Basic Acquire on a hung server with a %v context = %v after %v, want an error within %v", within, err, took, within+slack)
		}
	})
	t.Run("Redlock", func(t *testing.T) {
		ss := redistest.Require(t, 3)
		p := startBlackhole(t, ss[0].Addr)
		addrs := []string{p.addr(), ss[1].Addr, ss[2].Addr}
		var nodes []locks.Redis
		for _, a := range addrs {
			c := redis.NewClient(&redis.Options{Addr: a, DialerRetries: 1, ContextTimeoutEnabled: true})
			t.Cleanup(func() { c.Close() })
			nodes = append(nodes, c)
		}
		const nodeTimeout = 300 * time.Millisecond
		rl, err := locks.NewRedlock(nodes, "hung-node", locks.Options{TTL: 10 * time.Second, NodeTimeout: nodeTimeout})
		if err != nil {
			t.Fatal(err)
		}
		if err := nodes[0].(*redis.Client).Ping(t.Context()).Err(); err != nil {
			t.Fatal(err)
		}
		p.hole()
		ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
		defer cancel()
		start := time.Now()
		l, err := rl.Acquire(ctx)
		took := time.Since(start)
		if err != nil || took > nodeTimeout+slack {
			t.Fatalf("Redlock Acquire with one node of three black-holed = %v after %v, want a lease within %v", err, took, nodeTimeout+slack)
		}
		_ = rl.Release(context.Background(), l)
	})
}
