package locks

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// pollOnly hides the Blocker of a client, so that its waiters poll through
// the Clock: the tests whose Clock moves time by hand need every wait to
// pass through it (a BLPOP waits in the server's real time).
func pollOnly(r Redis) Redis { return struct{ Redis }{r} }

// slowPoll is a retry policy whose first backoff (30s to 60s) outlasts the
// tests' 20s deadline: a waiter that polled would miss it, only a woken
// one is granted within it.
func slowPoll() Retry {
	return Retry{Attempts: -1, Delay: time.Minute, MaxDelay: time.Minute}
}

func wakeCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// acquireAsync runs l.Acquire(ctx) in a goroutine and returns where its
// result arrives.
func acquireAsync(ctx context.Context, l Locker) <-chan error {
	done := make(chan error, 1)
	go func() {
		lease, err := l.Acquire(ctx)
		if err == nil {
			err = l.Release(context.Background(), lease)
		}
		done <- err
	}()
	return done
}

// waitQueued waits until the lock named name has n queued waiters.
func waitQueued(t *testing.T, r Redis, name string, n int) {
	t.Helper()
	extWaitFor(t, "the waiter to queue", func() bool { return extInspect(t, r, name, KindFair).Queue == n })
}

// TestFairWaiterWokenByRelease: a waiter whose backoff outlasts its
// deadline is still granted, because the release wakes it.
func TestFairWaiterWokenByRelease(t *testing.T) {
	e := extReal(t)
	ctx, name := wakeCtx(t), extName(t)
	o := Options{TTL: time.Minute, Retry: slowPoll()}
	holder := newFairT(t, e.client(t), name, o)
	hl, err := holder.Acquire(ctx)
	if err != nil {
		t.Fatalf("holder Acquire = %v", err)
	}
	done := acquireAsync(ctx, newFairT(t, e.client(t), name, o))
	waitQueued(t, e.client(t), name, 1)
	if err := holder.Release(ctx, hl); err != nil {
		t.Fatalf("holder Release = %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("waiter = %v, want a grant as soon as the holder released", err)
	}
}

// TestFairWithoutBlockerPolls: behind a seam that cannot block, the same
// waiter polls and its first backoff outlasts the deadline — the contrast
// that shows the wake-up above is what grants it.
func TestFairWithoutBlockerPolls(t *testing.T) {
	e := extReal(t)
	ctx, name := context.Background(), extName(t)
	o := Options{TTL: time.Minute, Retry: slowPoll()}
	holder := newFairT(t, e.client(t), name, o)
	hl, err := holder.Acquire(ctx)
	if err != nil {
		t.Fatalf("holder Acquire = %v", err)
	}
	wctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	done := acquireAsync(wctx, newFairT(t, pollOnly(e.client(t)), name, o))
	waitQueued(t, e.client(t), name, 1)
	if err := holder.Release(ctx, hl); err != nil {
		t.Fatalf("holder Release = %v", err)
	}
	if err := <-done; !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("polling waiter = %v, want its deadline (it sleeps through the release)", err)
	}
}

// TestFairBlockedWaitEnds: a waiter blocked on its wake list stops when its
// context ends and leaves the queue: at its deadline (go-redis with
// ContextTimeoutEnabled reads under it), and on a cancel by the end of the
// block it is in (go-redis does not interrupt a read on cancel), which
// Retry.MaxDelay bounds.
func TestFairBlockedWaitEnds(t *testing.T) {
	e := extReal(t)
	rdb := redis.NewClient(&redis.Options{Addr: e.addr, DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	for _, tc := range []struct {
		name  string
		retry Retry
		end   func(context.Context) (context.Context, context.CancelFunc, func())
		want  error
	}{
		{"deadline", slowPoll(), func(ctx context.Context) (context.Context, context.CancelFunc, func()) {
			c, cancel := context.WithTimeout(ctx, 2*time.Second)
			return c, cancel, func() {}
		}, context.DeadlineExceeded},
		{"cancel", Retry{Attempts: -1, Delay: time.Second, MaxDelay: time.Second}, func(ctx context.Context) (context.Context, context.CancelFunc, func()) {
			c, cancel := context.WithCancel(ctx)
			return c, cancel, cancel
		}, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, name := wakeCtx(t), extName(t)
			o := Options{TTL: time.Minute, Retry: tc.retry}
			if _, err := newFairT(t, e.client(t), name, o).Acquire(ctx); err != nil {
				t.Fatalf("holder Acquire = %v", err)
			}
			wctx, cancel, end := tc.end(ctx)
			defer cancel()
			done := acquireAsync(wctx, newFairT(t, rdb, name, o))
			waitQueued(t, e.client(t), name, 1)
			end()
			select {
			case err := <-done:
				if !errors.Is(err, tc.want) {
					t.Fatalf("waiter = %v, want %v", err, tc.want)
				}
			case <-ctx.Done():
				t.Fatal("the waiter stayed blocked past the test's deadline")
			}
			waitQueued(t, e.client(t), name, 0)
		})
	}
}

// TestFairWakesOnlyTheHead: a release pushes to the head's wake list only,
// with an expiry; the head leaving wakes the next waiter; a release of a
// lock not held wakes nobody.
func TestFairWakesOnlyTheHead(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		r := e.client(t)
		f := newFairT(t, r, name, Options{TTL: time.Minute, Retry: slowPoll()})
		hl, err := f.Acquire(ctx)
		if err != nil {
			t.Fatalf("holder Acquire = %v", err)
		}
		for _, tok := range []string{"w1", "w2", "w3"} {
			if _, err := f.poll(ctx, tok); !errors.Is(err, ErrNotAcquired) {
				t.Fatalf("poll(%q) while held = %v, want ErrNotAcquired", tok, err)
			}
		}
		pushed := func() []int64 {
			var n []int64
			for _, tok := range []string{"w1", "w2", "w3"} {
				n = append(n, r.LLen(ctx, WakePrefix(name)+tok).Val())
			}
			return n
		}
		if err := f.Release(ctx, hl); err != nil {
			t.Fatalf("Release = %v", err)
		}
		if got := pushed(); got[0] != 1 || got[1] != 0 || got[2] != 0 {
			t.Fatalf("wake lists after Release = %v, want [1 0 0] (the head only)", got)
		}
		if ttl := r.PTTL(ctx, WakePrefix(name)+"w1").Val(); ttl <= 0 {
			t.Errorf("PTTL(head's wake list) = %v, want an expiry", ttl)
		}
		if err := f.leave(ctx, "w1"); err != nil {
			t.Fatalf("leave(w1) = %v", err)
		}
		if got := pushed(); got[0] != 0 || got[1] != 1 || got[2] != 0 {
			t.Fatalf("wake lists after the head left = %v, want [0 1 0] (its own deleted, the next woken)", got)
		}
		if err := f.Release(ctx, hl); !errors.Is(err, ErrNotHeld) {
			t.Fatalf("second Release = %v, want ErrNotHeld", err)
		}
		if got := pushed(); got[1] != 1 {
			t.Errorf("wake lists after a refused release = %v, want no new push", got)
		}
	})
}
