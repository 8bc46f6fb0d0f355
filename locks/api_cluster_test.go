package locks_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

// TestTTLAndMultiLockOnCluster: on a 3-master Cluster, every pattern reads
// its held lease's TTL (the scripts' keys stay in the lock's slot) and
// refuses another key's lease; NewMultiLock accepts exactly the key lists
// the server puts in one slot (CLUSTER KEYSLOT), and such a MultiLock
// takes, reads and gives back its keys; keys in several slots sent through
// a plain client get CROSSSLOT, an error matching ErrPermanent, at once.
func TestTTLAndMultiLockOnCluster(t *testing.T) {
	c := startCluster(t)
	ctx := context.Background()
	o := locks.Options{TTL: 10 * time.Second, Retry: locks.Retry{Attempts: 1}}
	t.Run("TTL", func(t *testing.T) { clusterTTL(t, c, o) })
	t.Run("MultiLockSlots", func(t *testing.T) {
		pairs := [][2]string{{"{o}:a", "{o}:b"}, {"a", "b"}, {"x{t}", "{t}y"}, {"foo", "bar"}, {"{}a", "{}b"}}
		for _, p := range pairs {
			s0, s1 := c.ClusterKeySlot(ctx, p[0]).Val(), c.ClusterKeySlot(ctx, p[1]).Val()
			_, err := locks.NewMultiLock(c, []string{p[0], p[1]}, o)
			var oe *locks.OptionError
			if same := s0 == s1; same == (err != nil) || (!same && !errors.As(err, &oe)) {
				t.Errorf("NewMultiLock(%q, %q) with slots %d, %d = %v", p[0], p[1], s0, s1, err)
			}
		}
		ml := extMustT(t)(locks.NewMultiLock(c, []string{"{order}:a", "{order}:b", "{order}:c"}, o)).(*locks.MultiLock)
		l, err := ml.Acquire(ctx)
		if err != nil {
			t.Fatalf("Acquire on one slot = %v", err)
		}
		if d, err := ml.TTL(ctx, l); err != nil || d <= 0 || d > o.TTL {
			t.Errorf("TTL = (%v, %v), want a duration in (0, %v]", d, err, o.TTL)
		}
		if err := ml.Release(ctx, l); err != nil {
			t.Errorf("Release = %v", err)
		}
	})
	t.Run("CROSSSLOT", func(t *testing.T) {
		node := redis.NewClient(&redis.Options{Addr: c.Options().Addrs[0], ContextTimeoutEnabled: true})
		defer node.Close()
		ml := extMustT(t)(locks.NewMultiLock(node, []string{"a", "b"}, locks.Options{TTL: time.Second, Retry: locks.Retry{Attempts: -1}}))
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		_, err := ml.Acquire(cctx)
		if !errors.Is(err, locks.ErrPermanent) || !strings.Contains(err.Error(), "CROSSSLOT") || cctx.Err() != nil {
			t.Errorf("Acquire of keys in two slots through a plain client = %v, want CROSSSLOT, ErrPermanent, at once", err)
		}
	})
}

// clusterTTL: each pattern's TTL on the Cluster, and another key's lease
// refused.
func clusterTTL(t *testing.T, c *redis.ClusterClient, o locks.Options) {
	ctx := context.Background()
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
		{"RWLockReader", func(k string) (locks.Locker, error) {
			rw, err := locks.NewRWLock(c, k, o)
			if err != nil {
				return nil, err
			}
			return rw.Reader(), nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := fmt.Sprintf("ttl:%s:a", tc.name), fmt.Sprintf("ttl:%s:b", tc.name)
			la, lb := extMustT(t)(tc.new(a)), extMustT(t)(tc.new(b))
			leaseA, err := la.Acquire(ctx)
			if err != nil {
				t.Fatalf("Acquire(%s) = %v", a, err)
			}
			defer la.Release(ctx, leaseA)
			leaseB, err := lb.Acquire(ctx)
			if err != nil {
				t.Fatalf("Acquire(%s) = %v", b, err)
			}
			defer lb.Release(ctx, leaseB)
			tr := la.(locks.TTLReader)
			if d, err := tr.TTL(ctx, leaseA); err != nil || d <= 0 || d > o.TTL {
				t.Errorf("TTL(%s) = (%v, %v), want a duration in (0, %v]", a, d, err, o.TTL)
			}
			if _, err := tr.TTL(ctx, leaseB); !errors.Is(err, locks.ErrNotHeld) {
				t.Errorf("TTL(%s) of %s's lease = %v, want ErrNotHeld", a, b, err)
			}
		})
	}
}
