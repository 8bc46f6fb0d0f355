package pattern_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/broken"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// The tests select the broken variants by name beside the correct patterns.
func init() { broken.Extend(pattern.Default) }

func advancedClient(t *testing.T, m *miniredis.Miniredis) locks.Redis {
	c := redis.NewClient(&redis.Options{Addr: m.Addr(), ContextTimeoutEnabled: true})
	t.Cleanup(func() { c.Close() })
	return c
}

// TestAdvancedRegistered: every advanced pattern and its seed version is
// registered and its clients can take and give back the lock; with one
// client holding, a second is refused exactly when the claims say so.
func TestAdvancedRegistered(t *testing.T) {
	tests := []struct {
		name       string
		broken     bool
		secondGets bool // a second client gets in beside the first (first acquisitions are writes for rwlock)
	}{
		{"fair", false, false}, {"rwlock", false, false}, {"rwlock-write", false, false},
		{"semaphore", false, true}, {"fair-clock-queue", true, false}, {"rwlock-shared-count", true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := pattern.Lookup(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if p.Broken != tc.broken || (p.Broken && p.Pitfall == "") {
				t.Fatalf("%s: Broken = %v, Pitfall %q", tc.name, p.Broken, p.Pitfall)
			}
			m := miniredis.RunT(t)
			ctx, o := context.Background(), locks.Options{TTL: time.Second}
			a, err := p.New([]locks.Redis{advancedClient(t, m)}, "k", o)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := p.New([]locks.Redis{advancedClient(t, m)}, "k", o)
			la, err := a.Acquire(ctx)
			if err != nil {
				t.Fatalf("first client: Acquire = %v", err)
			}
			_, err = b.Acquire(ctx)
			if got := err == nil; got != tc.secondGets {
				t.Errorf("second client: Acquire = %v, want granted=%v", err, tc.secondGets)
			}
			if err := a.Release(ctx, la); err != nil {
				t.Errorf("Release = %v", err)
			}
		})
	}
}

// TestSemaphoreClaim: the catalog's semaphore admits exactly MaxHolders.
func TestSemaphoreClaim(t *testing.T) {
	p, _ := pattern.Lookup("semaphore")
	m := miniredis.RunT(t)
	ctx := context.Background()
	var granted int
	for range p.Claims.MaxHolders + 1 {
		l, err := p.New([]locks.Redis{advancedClient(t, m)}, "k", locks.Options{TTL: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Acquire(ctx); err == nil {
			granted++
		} else if !errors.Is(err, locks.ErrNotAcquired) {
			t.Fatal(err)
		}
	}
	if granted != p.Claims.MaxHolders {
		t.Errorf("%d of %d clients granted, want MaxHolders = %d", granted, p.Claims.MaxHolders+1, p.Claims.MaxHolders)
	}
}

// TestAlternating: write first, then read, and each lease goes back to its
// own side.
func TestAlternating(t *testing.T) {
	m := miniredis.RunT(t)
	ctx := context.Background()
	rw, err := locks.NewRWLock(advancedClient(t, m), "k", locks.Options{TTL: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	alt := pattern.Alternating(rw.Writer(), rw.Reader())
	for i, wantRead := range []bool{false, true, false, true} {
		l, err := alt.Acquire(ctx)
		if err != nil {
			t.Fatalf("acquisition %d: %v", i+1, err)
		}
		if pattern.ReadLease(l) != wantRead {
			t.Errorf("acquisition %d: ReadLease = %v, want %v", i+1, pattern.ReadLease(l), wantRead)
		}
		if err := alt.Release(ctx, l); err != nil {
			t.Errorf("acquisition %d: Release = %v", i+1, err)
		}
	}
}

// TestReadLeaseIsMarkedNotNamed: a lease is a read holding because its
// Locker marked it Shared, not because of its key's name; the seed's
// read-write lock marks its read leases too.
func TestReadLeaseIsMarkedNotNamed(t *testing.T) {
	cases := []struct {
		name string
		l    *locks.Lease
		want bool
	}{
		{"nil", nil, false},
		{"key named :read, unmarked", &locks.Lease{Key: "rw_lock:k:read"}, false},
		{"key named readers, unmarked", &locks.Lease{Key: "{k}:readers"}, false},
		{"marked", &locks.Lease{Key: "k", Shared: true}, true},
	}
	for _, c := range cases {
		if got := pattern.ReadLease(c.l); got != c.want {
			t.Errorf("%s: ReadLease = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFencingPatternsIssueFences: every one-node pattern that claims
// fencing hands out a fencing token with its lease, and the plain ones
// it is built from do not.
func TestFencingPatternsIssueFences(t *testing.T) {
	ctx := context.Background()
	for _, p := range pattern.All() {
		if p.Broken || p.Nodes != 1 || p.Claims.Has(pattern.ClaimMaxHolders) {
			continue
		}
		m := miniredis.RunT(t)
		l, err := p.New([]locks.Redis{advancedClient(t, m)}, "k", locks.Options{TTL: time.Second})
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		lease, err := l.Acquire(ctx)
		if err != nil {
			t.Fatalf("%s: Acquire: %v", p.Name, err)
		}
		if got, want := lease.Fence > 0, p.Claims.Has(pattern.ClaimFencing); got != want {
			t.Errorf("%s: lease fence %d, claims fencing %v", p.Name, lease.Fence, want)
		}
		if err := l.Release(ctx, lease); err != nil {
			t.Errorf("%s: Release: %v", p.Name, err)
		}
	}
}
