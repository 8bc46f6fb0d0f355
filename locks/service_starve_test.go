package locks

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// starveOpts are Service options for the starving waiters' tests: a long
// TTL and a backoff long enough (200–400ms) that a waiter that is not
// woken sleeps through the moments the tests look at.
func starveOpts(after time.Duration, attempts int) Options {
	return Options{TTL: 10 * time.Second, StarveAfter: after,
		Retry: Retry{Attempts: attempts, Delay: 200 * time.Millisecond, MaxDelay: 400 * time.Millisecond}}
}

func newServiceT(t *testing.T, r Redis, key string, o Options) *Service {
	t.Helper()
	s, err := NewService(r, key, o)
	if err != nil {
		t.Fatalf("NewService(%q) = %v", key, err)
	}
	return s
}

// TestServiceStarvingWaiterFirst: a waiter that has waited StarveAfter is
// queued; when the holder lets go, a fresh Acquire by another client is
// refused and the starving waiter, woken by the release, takes the lock;
// once it has, the queue is empty and anyone may take the lock again.
// Without the queue (StarveAfter 0) the other client takes the lock while
// the waiter sleeps out its backoff.
func TestServiceStarvingWaiterFirst(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, key := context.Background(), extName(t)
		admin := e.client(t)
		holder := newServiceT(t, e.client(t), key, starveOpts(time.Millisecond, -1))
		hl, err := holder.Acquire(ctx)
		if err != nil {
			t.Fatalf("holder Acquire = %v", err)
		}
		waiter := newServiceT(t, e.client(t), key, starveOpts(time.Millisecond, -1))
		got, done := make(chan error, 1), make(chan struct{})
		go func() {
			l, err := waiter.Acquire(ctx)
			got <- err
			if err == nil {
				<-done
				err = waiter.Release(ctx, l)
			}
			got <- err
		}()
		queue := waiter.re.starve.queue
		extWaitFor(t, "the waiter is queued", func() bool { return admin.ZCard(ctx, queue).Val() == 1 })
		other := newServiceT(t, e.client(t), key, starveOpts(time.Millisecond, 1))
		if err := holder.Release(ctx, hl); err != nil {
			t.Fatalf("holder Release = %v", err)
		}
		if l, err := other.Acquire(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Fatalf("another client's Acquire while a starving waiter is queued = %v, %v; want ErrNotAcquired", l, err)
		}
		select {
		case err := <-got:
			if err != nil {
				t.Fatalf("starving waiter = %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the starving waiter did not take the lock")
		}
		if n := admin.Exists(ctx, queue).Val(); n != 0 {
			t.Errorf("queue left behind after the grant (%d keys)", n)
		}
		close(done)
		if err := <-got; err != nil {
			t.Fatalf("starving waiter's Release = %v", err)
		}
		l, err := other.Acquire(ctx)
		if err != nil {
			t.Fatalf("Acquire with no starving waiter = %v", err)
		}
		if err := other.Release(ctx, l); err != nil {
			t.Fatalf("Release = %v", err)
		}
	})
}

// queueStarving puts a starving waiter token on s's queue, live for ttl,
// as the acquire script would.
func queueStarving(t *testing.T, e *extEnv, s *Service, token string, ttl time.Duration) {
	t.Helper()
	ctx, admin, k := context.Background(), e.client(t), s.re.starve
	if err := admin.ZAdd(ctx, k.queue, redis.Z{Score: 1, Member: token}).Err(); err != nil {
		t.Fatal(err)
	}
	if err := admin.Set(ctx, k.members+token, "1", ttl).Err(); err != nil {
		t.Fatal(err)
	}
}

// TestServiceStarvingReentry: a holder re-enters while a starving waiter
// is queued (it must, to go on and release), a fresh acquisition is
// refused, and the fenced variant keeps the holding's token on re-entry.
func TestServiceStarvingReentry(t *testing.T) {
	for _, fencing := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "fenced"}[fencing], func(t *testing.T) {
			extBoth(t, func(t *testing.T, e *extEnv) {
				ctx, key := context.Background(), extName(t)
				o := starveOpts(time.Hour, 1)
				o.Fencing = fencing
				holder := newServiceT(t, e.client(t), key, o)
				l1, err := holder.Acquire(ctx)
				if err != nil {
					t.Fatalf("Acquire = %v", err)
				}
				queueStarving(t, e, holder, "w1", 10*time.Second)
				l2, err := holder.Acquire(ctx)
				if err != nil {
					t.Fatalf("re-entry while a starving waiter is queued = %v", err)
				}
				if l2.Fence != l1.Fence {
					t.Errorf("re-entry's fence %d, want the holding's %d", l2.Fence, l1.Fence)
				}
				other := newServiceT(t, e.client(t), key, o)
				for _, l := range []*Lease{l2, l1} {
					if err := holder.Release(ctx, l); err != nil {
						t.Fatalf("Release = %v", err)
					}
				}
				if l, err := other.Acquire(ctx); !errors.Is(err, ErrNotAcquired) {
					t.Fatalf("fresh Acquire of a free lock while a starving waiter is queued = %v, %v; want ErrNotAcquired", l, err)
				}
			})
		})
	}
}

// TestServiceStarvingWaiterLeaves: a starving waiter whose context ends
// leaves the queue as its Acquire returns, so the lock is free for anyone
// once the holder lets go.
func TestServiceStarvingWaiterLeaves(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, key := context.Background(), extName(t)
		admin := e.client(t)
		holder := newServiceT(t, e.client(t), key, starveOpts(time.Millisecond, -1))
		hl, err := holder.Acquire(ctx)
		if err != nil {
			t.Fatalf("holder Acquire = %v", err)
		}
		waiter := newServiceT(t, e.client(t), key, starveOpts(time.Millisecond, -1))
		wctx, cancel := context.WithCancel(ctx)
		got := make(chan error, 1)
		go func() {
			_, err := waiter.Acquire(wctx)
			got <- err
		}()
		queue := waiter.re.starve.queue
		extWaitFor(t, "the waiter is queued", func() bool { return admin.ZCard(ctx, queue).Val() == 1 })
		cancel()
		if err := <-got; !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled waiter's Acquire = %v, want context.Canceled", err)
		}
		if n := admin.ZCard(ctx, queue).Val(); n != 0 {
			t.Fatalf("%d starving waiters queued after the only one gave up", n)
		}
		if err := holder.Release(ctx, hl); err != nil {
			t.Fatalf("holder Release = %v", err)
		}
		other := newServiceT(t, e.client(t), key, starveOpts(time.Millisecond, 1))
		l, err := other.Acquire(ctx)
		if err != nil {
			t.Fatalf("Acquire after the starving waiter left = %v", err)
		}
		if err := other.Release(ctx, l); err != nil {
			t.Fatalf("Release = %v", err)
		}
	})
}

// TestServiceStarvingWaiterVanishes: a starving waiter that vanished
// without leaving holds others back only until its key expires.
func TestServiceStarvingWaiterVanishes(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, key := context.Background(), extName(t)
		admin := e.client(t)
		s := newServiceT(t, e.client(t), key, starveOpts(time.Hour, 1))
		queueStarving(t, e, s, "gone", 300*time.Millisecond)
		if l, err := s.Acquire(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Fatalf("Acquire while a live starving waiter is queued = %v, %v; want ErrNotAcquired", l, err)
		}
		if e.mr != nil {
			e.mr.FastForward(time.Second)
		}
		extWaitFor(t, "the vanished waiter's key expires", func() bool {
			return admin.Exists(ctx, s.re.starve.members+"gone").Val() == 0
		})
		l, err := s.Acquire(ctx)
		if err != nil {
			t.Fatalf("Acquire once the vanished waiter's key expired = %v", err)
		}
		if err := s.Release(ctx, l); err != nil {
			t.Fatalf("Release = %v", err)
		}
		if n := admin.Exists(ctx, s.re.starve.queue).Val(); n != 0 {
			t.Errorf("the vanished waiter is still queued")
		}
	})
}

// TestServiceStarvingFence: a starving waiter granted a fenced Service's
// lock gets a fencing token above the holder's before it.
func TestServiceStarvingFence(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, key := context.Background(), extName(t)
		o := starveOpts(time.Millisecond, -1)
		o.Fencing = true
		holder := newServiceT(t, e.client(t), key, o)
		hl, err := holder.Acquire(ctx)
		if err != nil {
			t.Fatalf("holder Acquire = %v", err)
		}
		waiter := newServiceT(t, e.client(t), key, o)
		type grant struct {
			l   *Lease
			err error
		}
		got := make(chan grant, 1)
		go func() {
			l, err := waiter.Acquire(ctx)
			got <- grant{l, err}
		}()
		admin := e.client(t)
		extWaitFor(t, "the waiter is queued", func() bool { return admin.ZCard(ctx, waiter.re.starve.queue).Val() == 1 })
		if err := holder.Release(ctx, hl); err != nil {
			t.Fatalf("holder Release = %v", err)
		}
		g := <-got
		if g.err != nil {
			t.Fatalf("starving waiter = %v", g.err)
		}
		if g.l.Fence <= hl.Fence {
			t.Errorf("starving waiter's fence %d, want above the holder's %d", g.l.Fence, hl.Fence)
		}
		if err := waiter.Release(ctx, g.l); err != nil {
			t.Fatalf("Release = %v", err)
		}
	})
}

// TestStarveKeysInLockSlot: the starving waiters' keys are in the lock
// key's hash slot, or there are none (a key with '}' but no hash tag).
func TestStarveKeysInLockSlot(t *testing.T) {
	c := &config{Options: Options{Retry: Retry{MaxDelay: 160 * time.Millisecond}}}
	for _, key := range []string{"k", "a:b", "{t}x", "x{t}y{u}", "a{b", "a{}b", "a}b", "}", "{", FencedLockKey("n")} {
		k := newStarveKeys(key, time.Millisecond, c)
		if k == nil {
			if key != "a}b" && key != "}" && key != "a{}b" {
				t.Errorf("key %q: no starving waiters' keys", key)
			}
			continue
		}
		for _, name := range []string{k.queue, k.members + "t", k.wake + "t"} {
			if keySlot(name) != keySlot(key) {
				t.Errorf("key %q: %q is in slot %d, the lock in %d", key, name, keySlot(name), keySlot(key))
			}
		}
	}
	if k := newStarveKeys("k", 0, c); k != nil {
		t.Errorf("StarveAfter 0 keeps a queue (%+v)", k)
	}
}

// TestServiceStarveAfterNegative: a negative StarveAfter is refused.
func TestServiceStarveAfterNegative(t *testing.T) {
	_, err := NewService(extMini(t).client(t), "k", Options{TTL: time.Second, StarveAfter: -time.Millisecond})
	var oe *OptionError
	if !errors.As(err, &oe) || oe.Field != "StarveAfter" {
		t.Fatalf("NewService(StarveAfter -1ms) = %v, want an OptionError on StarveAfter", err)
	}
}
