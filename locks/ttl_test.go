package locks

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// wantTTL checks that tr's TTL of l is in (0, max].
func wantTTL(t *testing.T, tr TTLReader, l *Lease, maxTTL time.Duration, what string) {
	t.Helper()
	d, err := tr.TTL(context.Background(), l)
	if err != nil || d <= 0 || d > maxTTL {
		t.Errorf("TTL of %s = (%v, %v), want a duration in (0, %v]", what, d, err, maxTTL)
	}
}

// wantTTLNotHeld checks that tr's TTL of l is ErrNotHeld and ends l.
func wantTTLNotHeld(t *testing.T, tr TTLReader, l *Lease, what string) {
	t.Helper()
	if d, err := tr.TTL(context.Background(), l); !errors.Is(err, ErrNotHeld) {
		t.Errorf("TTL of %s = (%v, %v), want ErrNotHeld", what, d, err)
	}
	if err := l.Err(); !errors.Is(err, ErrLockLost) && !errors.Is(err, ErrReleased) {
		t.Errorf("lease.Err() = %v after TTL of %s, want the lease over", err, what)
	}
}

// TestTTLOfMembersAndQueues: the fair lock, a reader and the writer of a
// read-write lock, and a semaphore permit read their own holding's TTL on
// the server, over miniredis and redis-server; a reader's or a permit's
// TTL is its own key's, and once that key is gone (expired behind the
// holder's back) TTL says ErrNotHeld while the other members still hold.
func TestTTLOfMembersAndQueues(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx := context.Background()
		o := extFastOpts()
		name := extName(t)
		admin := e.client(t)

		f := newFairT(t, e.client(t), name+"f", o)
		lf := extAcquire(t, f)
		wantTTL(t, f, lf, o.TTL, "the fair lock's lease")
		lockKey, _, _, _ := FairKeys(name + "f")
		admin.Del(ctx, lockKey)
		if _, err := newFairT(t, e.client(t), name+"f", o).Acquire(ctx); err != nil {
			t.Fatalf("Acquire(fair rival) = %v", err)
		}
		wantTTLNotHeld(t, f, lf, "a fair lease whose lock another client took")

		rw := newRWT(t, e.client(t), name+"rw", o)
		r1, r2 := extAcquire(t, rw.Reader()), extAcquire(t, rw.Reader())
		wantTTL(t, rw, r1, o.TTL, "a reader's lease")
		_, _, _, rprefix := RWKeys(name + "rw")
		admin.Del(ctx, rprefix+r1.Token)
		wantTTLNotHeld(t, rw, r1, "a reader whose key expired")
		wantTTL(t, rw.Reader().(TTLReader), r2, o.TTL, "the other reader's lease")
		if err := rw.RUnlock(ctx, r2); err != nil {
			t.Fatalf("RUnlock = %v", err)
		}
		w := extAcquire(t, rw.Writer())
		wantTTL(t, rw.Writer().(TTLReader), w, o.TTL, "the writer's lease")
		if err := rw.Unlock(ctx, w); err != nil {
			t.Fatalf("Unlock = %v", err)
		}
		wantTTLNotHeld(t, rw, w, "the released writer's lease")

		sem := newSemT(t, e.client(t), name+"s", 2, o)
		p1, p2 := extAcquire(t, sem), extAcquire(t, sem)
		wantTTL(t, sem, p1, o.TTL, "a permit")
		_, pprefix := SemaphoreKeys(name + "s")
		admin.Del(ctx, pprefix+p2.Token)
		wantTTLNotHeld(t, sem, p2, "a permit whose key expired")
		wantTTL(t, sem, p1, o.TTL, "the other permit")
		for _, l := range []*Lease{p1} {
			_ = sem.Release(ctx, l)
		}
	})
}

// TestTTLSendsNothingForForeignLeases: TTL of a lease the Locker did not
// issue, or of one it released, is refused before any request.
func TestTTLSendsNothingForForeignLeases(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	a := extMust(NewBasic(rdb, "ttl:a", Options{TTL: time.Minute}))
	b := extMust(NewBasic(rdb, "ttl:b", Options{TTL: time.Minute}))
	la, lb := extAcquire(t, a), extAcquire(t, b)
	if err := b.Release(context.Background(), lb); err != nil {
		t.Fatal(err)
	}
	before := m.CommandCount()
	for what, l := range map[string]*Lease{"another Locker's": la, "a released": lb, "a nil": nil, "a hand-built": {Key: la.Key, Token: la.Token}} {
		if _, err := b.TTL(context.Background(), l); !errors.Is(err, ErrNotHeld) {
			t.Errorf("TTL of %s lease = %v, want ErrNotHeld", what, err)
		}
	}
	if n := m.CommandCount() - before; n != 0 {
		t.Errorf("%d commands reached Redis for refused leases, want 0", n)
	}
	if err := la.Err(); err != nil {
		t.Errorf("the other Locker's lease.Err() = %v, want nil", err)
	}
}

// TestRedlockTTLIsTheQuorums: a Redlock's TTL is how long a majority still
// holds the lease: with the key's TTL at 10s, 20s and 30s on three nodes,
// 20s (two nodes hold it that long); with one node's key gone and another
// node down, the TTL cannot be told and the node's error is returned; with
// two of three keys gone, ErrNotHeld.
func TestRedlockTTLIsTheQuorums(t *testing.T) {
	var nodes []Redis
	var mrs []*miniredis.Miniredis
	for range 3 {
		m := miniredis.RunT(t)
		c := redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, MaxRetries: -1, ContextTimeoutEnabled: true})
		t.Cleanup(func() { c.Close() })
		mrs, nodes = append(mrs, m), append(nodes, c)
	}
	rl := extMust(NewRedlock(nodes, "ttl:rl", Options{TTL: time.Minute, NodeTimeout: time.Second}))
	l := extAcquire(t, rl)
	for i, m := range mrs {
		m.SetTTL("ttl:rl", time.Duration(10*(i+1))*time.Second)
	}
	if d, err := rl.TTL(context.Background(), l); err != nil || d != 20*time.Second {
		t.Errorf("TTL = (%v, %v), want 20s", d, err)
	}
	mrs[0].Del("ttl:rl")
	mrs[1].Close()
	if d, err := rl.TTL(context.Background(), l); err == nil || errors.Is(err, ErrNotHeld) {
		t.Errorf("TTL with one key gone and one node down = (%v, %v), want the node's error", d, err)
	}
	if err := l.Err(); err != nil {
		t.Errorf("lease.Err() = %v after a TTL that could not tell, want nil", err)
	}
	mrs[2].Del("ttl:rl")
	if d, err := rl.TTL(context.Background(), l); !errors.Is(err, ErrNotHeld) {
		t.Errorf("TTL with two of three keys gone = (%v, %v), want ErrNotHeld", d, err)
	}
}

// TestQuorumTTL: the quorum-th longest TTL of the nodes that answered; a
// key without expiry counts as the longest.
func TestQuorumTTL(t *testing.T) {
	boom := errors.New("down")
	for _, tc := range []struct {
		ttls   []int64
		errs   []error
		quorum int
		want   int64
	}{
		{[]int64{30, 10, 20}, []error{nil, nil, nil}, 2, 20},
		{[]int64{30, 10, 20}, []error{nil, nil, nil}, 3, 10},
		{[]int64{-1, 10, 20}, []error{nil, nil, nil}, 2, 20},
		{[]int64{-1, -1, 20}, []error{nil, nil, nil}, 2, -1},
		{[]int64{90, 10, 20, 5, 7}, []error{boom, nil, nil, nil, ErrNotHeld}, 3, 5},
	} {
		if got := quorumTTL(tc.ttls, tc.errs, tc.quorum); got != tc.want {
			t.Errorf("quorumTTL(%v, %v, %d) = %d, want %d", tc.ttls, tc.errs, tc.quorum, got, tc.want)
		}
	}
}
