package locks_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// tokenPatterns are the patterns that take Options.Token.
var tokenPatterns = []struct {
	name string
	new  func(r locks.Redis, key string, o locks.Options) (locks.Locker, error)
}{
	{"Basic", func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewBasic(r, k, o) }},
	{"Watchdog", func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		return locks.NewWatchdog(r, k, o)
	}},
}

// TestTokenSurvivesRestart: on a real redis-server, a process holding a
// lock under a caller-chosen Token "restarts" (its client goes away without
// releasing); a new Locker with the same Token takes the lock back and
// releases it, while a Locker with another token is kept out throughout.
func TestTokenSurvivesRestart(t *testing.T) {
	srv := redistest.Require(t, 1)[0]
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	for _, p := range tokenPatterns {
		t.Run(p.name, func(t *testing.T) {
			key := "token:restart:" + p.name
			opts := locks.Options{TTL: 3 * time.Second, Token: "worker-7"}
			first := redis.NewClient(&redis.Options{Addr: srv.Addr, MaxRetries: -1, ContextTimeoutEnabled: true})
			a, err := p.new(first, key, opts)
			if err != nil {
				t.Fatal(err)
			}
			held, err := a.Acquire(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if held.Token != "worker-7" || rdb.Get(ctx, key).Val() != "worker-7" {
				t.Fatalf("lease token %q, key holds %q; want worker-7 both", held.Token, rdb.Get(ctx, key).Val())
			}
			first.Close() // the process dies holding the lock

			other, err := p.new(rdb, key, locks.Options{TTL: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := other.Acquire(ctx); !errors.Is(err, locks.ErrNotAcquired) {
				t.Fatalf("another token's Acquire = %v, want ErrNotAcquired", err)
			}
			b, err := p.new(rdb, key, opts) // the restarted process
			if err != nil {
				t.Fatal(err)
			}
			back, err := b.Acquire(ctx)
			if err != nil {
				t.Fatalf("Acquire with the same Token after the restart: %v", err)
			}
			if err := b.Release(ctx, back); err != nil {
				t.Fatalf("Release after taking the lock back: %v", err)
			}
			if n := rdb.Exists(ctx, key).Val(); n != 0 {
				t.Errorf("key still exists after the restarted owner released it")
			}
			l, err := other.Acquire(ctx)
			if err != nil {
				t.Fatalf("another token's Acquire after the release: %v", err)
			}
			_ = other.Release(ctx, l)
			select { // the dead process's lease ends on its own clock (a watchdog's renewals fail)
			case <-held.Done():
			case <-time.After(30 * time.Second):
				t.Errorf("the dead process's lease never ended")
			}
		})
	}
}

// TestTokenTakeBackEndsEarlierLease: a second Acquire of the same Locker
// with a Token takes the lock back, and the earlier lease is over (its
// Release is refused and leaves the lock to the later one).
func TestTokenTakeBackEndsEarlierLease(t *testing.T) {
	srv := redistest.Require(t, 1)[0]
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	b, err := locks.NewBasic(rdb, "token:again", locks.Options{TTL: 10 * time.Second, Token: "w"})
	if err != nil {
		t.Fatal(err)
	}
	l1, err := b.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	l2, err := b.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(l1.Err(), locks.ErrLockLost) {
		t.Errorf("earlier lease Err = %v, want ErrLockLost", l1.Err())
	}
	if err := b.Release(ctx, l1); !errors.Is(err, locks.ErrNotHeld) {
		t.Errorf("Release of the earlier lease = %v, want ErrNotHeld", err)
	}
	if rdb.Get(ctx, "token:again").Val() != "w" {
		t.Errorf("the earlier lease's Release removed the later holding")
	}
	if err := b.Release(ctx, l2); err != nil {
		t.Fatal(err)
	}
}

// TestTokenValidation: a bad Token is refused at construction with an
// *OptionError naming Token, as is a Token on a pattern that takes none.
func TestTokenValidation(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	ttl := time.Second
	cases := []struct {
		name string
		new  func() (locks.Locker, error)
	}{
		{"@ prefix", func() (locks.Locker, error) { return locks.NewBasic(rdb, "k", locks.Options{TTL: ttl, Token: "@me"}) }},
		{"control character", func() (locks.Locker, error) {
			return locks.NewWatchdog(rdb, "k", locks.Options{TTL: ttl, Token: "a\nb"})
		}},
		{"too long", func() (locks.Locker, error) {
			return locks.NewBasic(rdb, "k", locks.Options{TTL: ttl, Token: strings.Repeat("x", 513)})
		}},
		{"with Fencing", func() (locks.Locker, error) {
			return locks.NewWatchdog(rdb, "k", locks.Options{TTL: ttl, Token: "me", Fencing: true})
		}},
		{"Fenced", func() (locks.Locker, error) { return locks.NewFenced(rdb, "k", locks.Options{TTL: ttl, Token: "me"}) }},
		{"Reentrant", func() (locks.Locker, error) {
			return locks.NewReentrant(rdb, "k", locks.Options{TTL: ttl, Token: "me"})
		}},
		{"Service", func() (locks.Locker, error) { return locks.NewService(rdb, "k", locks.Options{TTL: ttl, Token: "me"}) }},
		{"Redlock", func() (locks.Locker, error) {
			return locks.NewRedlock([]locks.Redis{rdb}, "k", locks.Options{TTL: ttl, Token: "me"})
		}},
	}
	for _, c := range cases {
		_, err := c.new()
		var oe *locks.OptionError
		if !errors.As(err, &oe) || oe.Field != "Token" {
			t.Errorf("%s: err = %v, want an *OptionError for Token", c.name, err)
		}
	}
	if _, err := locks.NewBasic(rdb, "k", locks.Options{TTL: ttl, Token: "worker-7"}); err != nil {
		t.Errorf("a good Token: %v", err)
	}
}
