package locks_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// replicaSet is a real primary and a replica of it, started by the test.
type replicaSet struct {
	primary, replica *redistest.Server
	pc, rc           *redis.Client // clients of the primary and the replica
}

// startReplicaSet starts two redis-servers, makes the second a replica of
// the first through upstream (the primary's address, or a proxy to it),
// and waits until a write is acknowledged by it.
func startReplicaSet(t testing.TB, upstream func(primary string) string) *replicaSet {
	t.Helper()
	ss := redistest.Require(t, 2)
	cs := redistest.Clients(t, ss)
	rs := &replicaSet{primary: ss[0], replica: ss[1], pc: cs[0], rc: cs[1]}
	host, port, _ := strings.Cut(upstream(rs.primary.Addr), ":")
	ctx := context.Background()
	if err := rs.pc.ConfigSet(ctx, "repl-diskless-sync-delay", "0").Err(); err != nil {
		t.Fatal(err)
	}
	if err := rs.rc.ReplicaOf(ctx, host, port).Err(); err != nil {
		t.Fatalf("REPLICAOF %s %s = %v", host, port, err)
	}
	// Just after its first sync a replica may take most of a second to
	// acknowledge: wait for five writes in a row acknowledged within 100ms.
	deadline := time.Now().Add(20 * time.Second)
	for row := 0; row < 5; {
		c := rs.pc.Conn()
		c.Set(ctx, "sync:probe", "1", 0)
		n, err := c.Wait(ctx, 1, 100*time.Millisecond).Result()
		c.Close()
		row++
		if err != nil || n != 1 {
			row = 0
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replica does not acknowledge writes (WAIT = %d, %v)", n, err)
		}
		time.Sleep(20 * time.Millisecond) // real time: a real replica's first sync
	}
	return rs
}

// stopReplica SIGSTOPs the replica process until the test ends.
func (rs *replicaSet) stopReplica(t *testing.T) {
	t.Helper()
	pid := rs.replica.Pid()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
}

func direct(addr string) string { return addr }

// singles are the patterns that wait for replicas.
var singles = []struct {
	name string
	new  func(r locks.Redis, key string, o locks.Options) (locks.Locker, error)
}{
	{"Basic", func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewBasic(r, k, o) }},
	{"Watchdog", func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		return locks.NewWatchdog(r, k, o)
	}},
	{"Fenced", func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewFenced(r, k, o) }},
	{"Reentrant", func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		return locks.NewReentrant(r, k, o)
	}},
	{"Service", func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		o.Retry = locks.Retry{Attempts: 1}
		return locks.NewService(r, k, o)
	}},
}

// lockKey is where a pattern keeps key's lock.
func lockKey(pattern, key string) string {
	if pattern == "Fenced" {
		return locks.FencedLockKey(key)
	}
	return key
}

// TestWaitReplicasHealthy: with a replica that keeps up, WaitReplicas=1
// grants, and the replica has the lock key when Acquire returns.
func TestWaitReplicasHealthy(t *testing.T) {
	rs := startReplicaSet(t, direct)
	ctx := context.Background()
	for _, p := range singles {
		t.Run(p.name, func(t *testing.T) {
			key := "wait:healthy:" + p.name
			lk, err := p.new(rs.pc, key, locks.Options{TTL: 5 * time.Second, WaitReplicas: 1})
			if err != nil {
				t.Fatal(err)
			}
			l, err := lk.Acquire(ctx)
			if err != nil {
				t.Fatalf("Acquire = %v, want a grant", err)
			}
			defer lk.Release(ctx, l)
			if n, err := rs.rc.Exists(ctx, lockKey(p.name, key)).Result(); err != nil || n != 1 {
				t.Errorf("replica's EXISTS %s = %d, %v; want 1 when Acquire returns", key, n, err)
			}
		})
	}
}

// TestWaitReplicasStoppedReplica: with the replica SIGSTOPped, a grant that
// waits for one replica fails with ErrNotReplicated (a *ReplicationError
// counting 0 of 1) within a generous bound of its WaitTimeout, and leaves
// no lock key on the primary.
func TestWaitReplicasStoppedReplica(t *testing.T) {
	rs := startReplicaSet(t, direct)
	rs.stopReplica(t)
	ctx := context.Background()
	for _, p := range singles {
		t.Run(p.name, func(t *testing.T) {
			key := "wait:stopped:" + p.name
			o := locks.Options{TTL: 5 * time.Second, WaitReplicas: 1, WaitTimeout: 100 * time.Millisecond}
			lk, err := p.new(rs.pc, key, o)
			if err != nil {
				t.Fatal(err)
			}
			begin := time.Now()
			l, err := lk.Acquire(ctx)
			took := time.Since(begin)
			var re *locks.ReplicationError
			if !errors.Is(err, locks.ErrNotReplicated) || !errors.As(err, &re) || re.Acked != 0 || re.Want != 1 {
				t.Fatalf("Acquire = %v, %v; want ErrNotReplicated, 0 of 1 acknowledged", l, err)
			}
			if took > 3*time.Second {
				t.Errorf("Acquire took %v, want about the 100ms WaitTimeout (bound 3s)", took)
			}
			if n, err := rs.pc.Exists(ctx, lockKey(p.name, key)).Result(); err != nil || n != 0 {
				t.Errorf("EXISTS %s on the primary = %d, %v; want 0: a refused grant is given back", key, n, err)
			}
		})
	}
}

// TestWaitReplicasRenewalLost: a watchdog whose renewal the replica no
// longer acknowledges (SIGSTOPped after the grant) loses its lease: Done
// closes, Err matches ErrLockLost and ErrNotReplicated, and the key is
// given back.
func TestWaitReplicasRenewalLost(t *testing.T) {
	rs := startReplicaSet(t, direct)
	stopped := false
	for _, p := range singles {
		if p.name != "Watchdog" && p.name != "Service" {
			continue
		}
		t.Run(p.name, func(t *testing.T) {
			ctx, key := context.Background(), "wait:renew:"+p.name
			lk, err := p.new(rs.pc, key, locks.Options{TTL: time.Second, WaitReplicas: 1, WaitTimeout: 50 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if stopped {
				t.Fatal("the replica is stopped already")
			}
			l, err := lk.Acquire(ctx)
			if err != nil {
				t.Fatalf("Acquire = %v", err)
			}
			defer lk.Release(ctx, l)
			syscall.Kill(rs.replica.Pid(), syscall.SIGSTOP)
			defer syscall.Kill(rs.replica.Pid(), syscall.SIGCONT)
			select {
			case <-l.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("Done still open 10s after the replica stopped acknowledging renewals")
			}
			if err := l.Err(); !errors.Is(err, locks.ErrLockLost) || !errors.Is(err, locks.ErrNotReplicated) {
				t.Errorf("Err() = %v, want ErrLockLost and ErrNotReplicated", err)
			}
			if p.name == "Watchdog" {
				// The key is given back right after Done closes (Done first: a
				// holder must not wait on the give-back's round trip to learn
				// of the loss), so wait for it, well within the key's TTL.
				var n int64
				clocktest.Eventually(500*time.Millisecond, func() bool {
					n, err = rs.pc.Exists(ctx, key).Result()
					return err == nil && n == 0
				})
				if err != nil || n != 0 {
					t.Errorf("EXISTS %s = %d, %v; want 0: the lost lease's key is given back", key, n, err)
				}
			}
		})
	}
}

// TestWaitReplicasFailover: the replication link is held by a proxy, and
// the replica is then promoted. Without WaitReplicas the grant succeeds,
// the promoted replica never got it, and a second client takes the lock
// there beside the first; with WaitReplicas=1 the grant is refused instead.
func TestWaitReplicasFailover(t *testing.T) {
	var link *blackhole
	rs := startReplicaSet(t, func(primary string) string {
		link = startBlackhole(t, primary)
		return link.addr()
	})
	ctx := context.Background()
	link.hole()
	waiting, err := locks.NewBasic(rs.pc, "wait:failover:w", locks.Options{TTL: 5 * time.Second, WaitReplicas: 1, WaitTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := waiting.Acquire(ctx); !errors.Is(err, locks.ErrNotReplicated) {
		t.Errorf("Acquire with WaitReplicas over a held link = %v, want ErrNotReplicated", err)
	}
	plain, err := locks.NewBasic(rs.pc, "wait:failover", locks.Options{TTL: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plain.Acquire(ctx); err != nil {
		t.Fatalf("Acquire without WaitReplicas = %v, want a grant", err)
	}
	if err := rs.rc.ReplicaOf(ctx, "NO", "ONE").Err(); err != nil {
		t.Fatal(err)
	}
	if n, err := rs.rc.Exists(ctx, "wait:failover").Result(); err != nil || n != 0 {
		t.Errorf("EXISTS on the promoted replica = %d, %v; want 0 (it never got the grant)", n, err)
	}
	second, err := locks.NewBasic(rs.rc, "wait:failover", locks.Options{TTL: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := second.Acquire(ctx); err != nil {
		t.Errorf("second client's Acquire on the promoted replica = %v; want the grant that overlaps the first", err)
	}
}

// TestWaitReplicasOptions: WaitReplicas and WaitTimeout are checked at
// construction, naming the field and value.
func TestWaitReplicasOptions(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", ContextTimeoutEnabled: true})
	defer rdb.Close()
	for _, tc := range []struct {
		name string
		new  func() error
		want string
	}{
		{"negative", func() error {
			_, err := locks.NewBasic(rdb, "k", locks.Options{TTL: time.Second, WaitReplicas: -1})
			return err
		}, "WaitReplicas (-1)"},
		{"timeout alone", func() error {
			_, err := locks.NewBasic(rdb, "k", locks.Options{TTL: time.Second, WaitTimeout: time.Millisecond})
			return err
		}, "WaitTimeout (1ms) is set but WaitReplicas is 0"},
		{"timeout past validity", func() error {
			_, err := locks.NewBasic(rdb, "k", locks.Options{TTL: 100 * time.Millisecond, WaitReplicas: 1, WaitTimeout: 100 * time.Millisecond})
			return err
		}, "WaitTimeout (100ms) must be less than the validity"},
		{"sub-millisecond timeout", func() error {
			_, err := locks.NewBasic(rdb, "k", locks.Options{TTL: time.Second, WaitReplicas: 1, WaitTimeout: time.Microsecond})
			return err
		}, "WaitTimeout (0s) must be at least 1ms"},
		{"Redlock", func() error {
			_, err := locks.NewRedlock([]locks.Redis{rdb}, "k", locks.Options{TTL: time.Second, WaitReplicas: 1})
			return err
		}, "WaitReplicas (1) is not supported by Redlock"},
		{"Fair", func() error {
			_, err := locks.NewFair(rdb, "k", locks.Options{TTL: time.Second, WaitReplicas: 1})
			return err
		}, "WaitReplicas (1) is not supported by Fair"},
		{"unpinnable seam", func() error {
			ring := redis.NewRing(&redis.RingOptions{ContextTimeoutEnabled: true})
			defer ring.Close()
			_, err := locks.NewBasic(ring, "k", locks.Options{TTL: time.Second, WaitReplicas: 1})
			return err
		}, "WaitReplicas (1) needs a seam that can pin a connection"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.new()
			var oe *locks.OptionError
			if !errors.As(err, &oe) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("constructor = %v, want an OptionError containing %q", err, tc.want)
			}
		})
	}
}

// BenchmarkBasicWaitReplicas: Acquire+Release of a Basic lock on a real
// primary with one replica, without and with WaitReplicas=1 (one more
// round trip, and the replica's acknowledgement, per grant).
func BenchmarkBasicWaitReplicas(b *testing.B) {
	rs := startReplicaSet(b, direct)
	ctx := context.Background()
	for _, n := range []int{0, 1} {
		b.Run("wait="+strconv.Itoa(n), func(b *testing.B) {
			lk, err := locks.NewBasic(rs.pc, "bench:wait", locks.Options{TTL: 5 * time.Second, WaitReplicas: n, Retry: locks.Retry{Attempts: 50}})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				l, err := lk.Acquire(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if err := lk.Release(ctx, l); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
