package locks_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// probeNodes starts n real redis-servers and returns a client on each,
// logged in as user (the default user if empty), and an admin client on
// each.
func probeNodes(t *testing.T, n int, user string) (nodes []locks.Redis, admins []*redis.Client) {
	t.Helper()
	ctx := context.Background()
	for _, s := range redistest.Require(t, n) {
		admin := redis.NewClient(&redis.Options{Addr: s.Addr, DialerRetries: 1, ContextTimeoutEnabled: true})
		t.Cleanup(func() { admin.Close() })
		admins = append(admins, admin)
		o := &redis.Options{Addr: s.Addr, DialerRetries: 1, ContextTimeoutEnabled: true}
		if user != "" {
			if err := admin.Do(ctx, "ACL", "SETUSER", user, "on", ">pw", "~*", "+@all", "-@scripting").Err(); err != nil {
				t.Fatal(err)
			}
			o.Username, o.Password = user, "pw"
		}
		c := redis.NewClient(o)
		t.Cleanup(func() { c.Close() })
		nodes = append(nodes, c)
	}
	return nodes, admins
}

// TestRedlockNoScriptingIsPermanent: an ACL user without @scripting on
// every node gets ErrPermanent (NOPERM) from Redlock.Acquire at once, with
// a context that never ends and unbounded retries, and no node is left
// with the lock key (it could never be released there).
func TestRedlockNoScriptingIsPermanent(t *testing.T) {
	nodes, admins := probeNodes(t, 3, "noscript")
	const key = "redlock:noscript"
	l, err := locks.NewRedlock(nodes, key, locks.Options{TTL: time.Second, Retry: locks.Retry{Attempts: -1}})
	if err != nil {
		t.Fatal(err)
	}
	err = acquireWithin(t, l, 5*time.Second)
	wantPermanent(t, "user without @scripting", err, "NOPERM")
	if errors.Is(err, locks.ErrQuorum) {
		t.Errorf("Acquire = %v, which also reads as \"taken\" (ErrQuorum)", err)
	}
	for i, a := range admins {
		if n := a.Exists(context.Background(), key).Val(); n != 0 {
			t.Errorf("node %d: EXISTS %s = %d after the refused Acquire, want 0", i, key, n)
		}
	}
}

// TestRedlockWrongTypeIsPermanent: a lock key holding a list on a majority
// of the nodes ends Acquire at once with ErrPermanent (WRONGTYPE), the
// lists untouched and no lock key left on the other node; on a minority
// the other nodes still make the quorum and Acquire succeeds.
func TestRedlockWrongTypeIsPermanent(t *testing.T) {
	nodes, admins := probeNodes(t, 3, "")
	ctx := context.Background()
	for _, lists := range []int{2, 1} {
		t.Run(fmt.Sprintf("lists-on-%d-of-3", lists), func(t *testing.T) {
			key := fmt.Sprintf("redlock:wrongtype:%d", lists)
			for _, a := range admins[:lists] {
				if err := a.LPush(ctx, key, "x").Err(); err != nil {
					t.Fatal(err)
				}
			}
			l, err := locks.NewRedlock(nodes, key, locks.Options{TTL: time.Second, Retry: locks.Retry{Attempts: -1}})
			if err != nil {
				t.Fatal(err)
			}
			err = acquireWithin(t, l, 5*time.Second)
			if lists == 1 {
				if err != nil {
					t.Fatalf("Acquire with a list on one node of three = %v, want the lock from the other two", err)
				}
				return
			}
			wantPermanent(t, "key holds a list on a majority", err, "WRONGTYPE")
			for i, a := range admins {
				want := "none"
				if i < lists {
					want = "list"
				}
				if typ := a.Type(ctx, key).Val(); typ != want {
					t.Errorf("node %d: TYPE %s = %q after the failed Acquire, want %s", i, key, typ, want)
				}
			}
		})
	}
}
