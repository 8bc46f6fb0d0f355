package locks_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// ttlLocker is a Locker with ExtendTTL.
type ttlLocker interface {
	locks.Locker
	locks.TTLExtender
}

// ttlExtenders are the patterns with ExtendTTL, and the key each writes.
var ttlExtenders = []struct {
	name string
	key  func(name string) string
	new  func(r locks.Redis, name string, o locks.Options) (ttlLocker, error)
}{
	{"Basic", func(n string) string { return n },
		func(r locks.Redis, n string, o locks.Options) (ttlLocker, error) { return locks.NewBasic(r, n, o) }},
	{"Reentrant", func(n string) string { return n },
		func(r locks.Redis, n string, o locks.Options) (ttlLocker, error) {
			return locks.NewReentrant(r, n, o)
		}},
	{"Fenced", locks.FencedLockKey,
		func(r locks.Redis, n string, o locks.Options) (ttlLocker, error) { return locks.NewFenced(r, n, o) }},
	{"Fair", func(n string) string { lock, _, _, _ := locks.FairKeys(n); return lock },
		func(r locks.Redis, n string, o locks.Options) (ttlLocker, error) { return locks.NewFair(r, n, o) }},
}

// TestExtendTTLSetsAnotherTTL: on a real redis-server, ExtendTTL of a held
// lease sets the key's TTL on the server and the lease's validity to the
// new TTL, longer or shorter than Options.TTL.
func TestExtendTTLSetsAnotherTTL(t *testing.T) {
	srv := redistest.Require(t, 1)[0]
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	for _, p := range ttlExtenders {
		t.Run(p.name, func(t *testing.T) {
			name := "extendttl:" + p.name
			l, err := p.new(rdb, name, locks.Options{TTL: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			lease, err := l.Acquire(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Release(ctx, lease)
			if err := l.ExtendTTL(ctx, lease, time.Minute); err != nil {
				t.Fatalf("ExtendTTL(1m): %v", err)
			}
			if ttl := rdb.PTTL(ctx, p.key(name)).Val(); ttl <= 50*time.Second {
				t.Errorf("PTTL after ExtendTTL(1m) = %v, want about a minute", ttl)
			}
			if v := lease.Validity(); v <= 50*time.Second {
				t.Errorf("Validity after ExtendTTL(1m) = %v, want about a minute", v)
			}
			if err := l.ExtendTTL(ctx, lease, 500*time.Millisecond); err != nil {
				t.Fatalf("ExtendTTL(500ms): %v", err)
			}
			if ttl := rdb.PTTL(ctx, p.key(name)).Val(); ttl > 500*time.Millisecond || ttl <= 0 {
				t.Errorf("PTTL after ExtendTTL(500ms) = %v, want at most 500ms", ttl)
			}
			if v := lease.Validity(); v > 500*time.Millisecond {
				t.Errorf("Validity after ExtendTTL(500ms) = %v, want under 500ms", v)
			}
		})
	}
}

// TestExtendTTLRefusesWhatItMustNot: ExtendTTL refuses a ttl that leaves no
// validity after its drift allowance with an *OptionError naming ttl, and
// another holder's lease with ErrNotHeld; neither touches the key's TTL.
func TestExtendTTLRefusesWhatItMustNot(t *testing.T) {
	srv := redistest.Require(t, 1)[0]
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	for _, p := range ttlExtenders {
		t.Run(p.name, func(t *testing.T) {
			name := "extendttl:refuse:" + p.name
			opts := locks.Options{TTL: 2 * time.Second}
			a, err := p.new(rdb, name, opts)
			if err != nil {
				t.Fatal(err)
			}
			b, err := p.new(rdb, name+":other", opts)
			if err != nil {
				t.Fatal(err)
			}
			lease, err := a.Acquire(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Release(ctx, lease)
			for _, ttl := range []time.Duration{-time.Second, 0, time.Millisecond, 2 * time.Millisecond} {
				err := a.ExtendTTL(ctx, lease, ttl)
				var oe *locks.OptionError
				if !errors.As(err, &oe) || oe.Field != "ttl" {
					t.Errorf("ExtendTTL(%v) = %v, want an *OptionError for ttl", ttl, err)
				}
			}
			if err := b.ExtendTTL(ctx, lease, time.Minute); !errors.Is(err, locks.ErrNotHeld) {
				t.Errorf("ExtendTTL of a foreign lease = %v, want ErrNotHeld", err)
			}
			if ttl := rdb.PTTL(ctx, p.key(name)).Val(); ttl > 2*time.Second || ttl < time.Second {
				t.Errorf("PTTL after the refused ExtendTTLs = %v, want the 2s of the grant", ttl)
			}
			if lease.Err() != nil {
				t.Errorf("lease ended by a refused ExtendTTL: %v", lease.Err())
			}
		})
	}
}
