package bench

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

// TestRoundTripHookCounts checks the go-redis hook: one per command, one
// per pipeline, and a script's first run costs two (EVALSHA, NOSCRIPT,
// EVAL) and later runs one.
func TestRoundTripHookCounts(t *testing.T) {
	tg := embedded(t, 1)
	var rt Counter
	cs, err := tg.Open(1, 2, &rt)
	if err != nil {
		t.Fatal(err)
	}
	defer CloseAll(cs)
	ctx := context.Background()
	c := cs[0]
	script := redis.NewScript("return 1 -- TestRoundTripHookCounts")
	steps := []struct {
		name string
		do   func() error
		want int64
	}{
		{"SET", func() error { return c.Set(ctx, "k", "v", 0).Err() }, 1},
		{"pipeline of 3", func() error {
			_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
				p.Get(ctx, "k")
				p.Incr(ctx, "n")
				p.Del(ctx, "k")
				return nil
			})
			return err
		}, 1},
		{"first script run", func() error { return script.Run(ctx, c, nil).Err() }, 2},
		{"second script run", func() error { return script.Run(ctx, c, nil).Err() }, 1},
	}
	for _, s := range steps {
		before := rt.Load()
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := rt.Load() - before; got != s.want {
			t.Errorf("%s: %d round trips counted, want %d", s.name, got, s.want)
		}
	}
}

// TestCountingRandCountsRetries checks the premise of counting a
// pattern's own retries through its Rand: three attempts on a taken lock
// draw jitter twice.
func TestCountingRandCountsRetries(t *testing.T) {
	tg := embedded(t, 1)
	var rt, n Counter
	cs, err := tg.Open(1, 2, &rt)
	if err != nil {
		t.Fatal(err)
	}
	defer CloseAll(cs)
	ctx := context.Background()
	if err := cs[0].Set(ctx, "taken", "someone", 0).Err(); err != nil {
		t.Fatal(err)
	}
	l, err := locks.NewBasic(cs[0], "taken", locks.Options{TTL: time.Second,
		Rand: countingRand{locks.CryptoRand{}, &n}, Retry: locks.Retry{Attempts: 3, Delay: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Acquire(ctx); !errors.Is(err, locks.ErrNotAcquired) {
		t.Fatalf("Acquire on a taken key = %v, want ErrNotAcquired", err)
	}
	if got := n.Load(); got != 2 {
		t.Errorf("retries counted = %d, want 2 (3 attempts)", got)
	}
}

func TestTokensAreUnique(t *testing.T) {
	a, b := newTokens(), newTokens()
	seen := map[string]bool{}
	for range 1000 {
		for _, tk := range []string{a.next(), b.next()} {
			if seen[tk] {
				t.Fatalf("token %q issued twice", tk)
			}
			seen[tk] = true
		}
	}
}

func TestCounterWindow(t *testing.T) {
	var all Counter
	all.Inc()
	all.Inc()
	if all.Load() != 2 {
		t.Errorf("zero-value counter = %d, want 2", all.Load())
	}
	var past, now, future Counter
	ago := time.Now().Add(-time.Hour)
	past.Window(ago, ago.Add(time.Minute))
	now.Window(ago, time.Now().Add(time.Hour))
	future.Window(time.Now().Add(time.Hour), time.Now().Add(2*time.Hour))
	for _, c := range []*Counter{&past, &now, &future} {
		c.Inc()
	}
	if past.Load() != 0 || now.Load() != 1 || future.Load() != 0 {
		t.Errorf("window counts past/now/future = %d/%d/%d, want 0/1/0", past.Load(), now.Load(), future.Load())
	}
	var nilCounter *Counter
	nilCounter.Inc() // must not panic
}
