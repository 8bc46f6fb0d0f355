package broken

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

// rwImpl is a read-write lock under test: the correct one or the seed's.
type rwImpl struct {
	name   string
	broken bool
	new    func(r locks.Redis, name string, o locks.Options) (locks.RWLocker, error)
}

var rwImpls = []rwImpl{
	{"locks.RWLock", false, func(r locks.Redis, n string, o locks.Options) (locks.RWLocker, error) {
		return locks.NewRWLock(r, n, o)
	}},
	{"SeedRW", true, func(r locks.Redis, n string, o locks.Options) (locks.RWLocker, error) {
		return NewSeedRW(r, n, o)
	}},
}

// TestSeedRWAnyoneReleasesRead: reader 2 releases twice while reader 1
// still reads. The correct lock refuses the second release (ErrNotHeld)
// and keeps the writer out; the seed's shared counter takes it, drops to
// zero, and lets a writer in beside reader 1.
func TestSeedRWAnyoneReleasesRead(t *testing.T) {
	for _, impl := range rwImpls {
		t.Run(impl.name, func(t *testing.T) {
			_, dial := seedMini(t)
			ctx := context.Background()
			o := seedQuickOpts()
			o.Retry.Attempts = 1
			rw, err := impl.new(dial(), "stray", o)
			if err != nil {
				t.Fatal(err)
			}
			r1, err := rw.RLock(ctx)
			if err != nil {
				t.Fatal(err)
			}
			r2, err := rw.RLock(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := rw.RUnlock(ctx, r2); err != nil {
				t.Fatal(err)
			}
			stray := rw.RUnlock(ctx, r2)
			w, werr := rw.Lock(ctx)
			switch {
			case !impl.broken && !errors.Is(stray, locks.ErrNotHeld):
				t.Errorf("second RUnlock(r2) = %v, want ErrNotHeld", stray)
			case !impl.broken && werr == nil:
				t.Errorf("Lock while reader 1 reads = granted, want ErrNotAcquired")
			case impl.broken && (stray != nil || werr != nil):
				t.Errorf("stray RUnlock = %v, Lock = %v: the seed's shared counter should take the stray release and admit the writer", stray, werr)
			}
			t.Logf("stray RUnlock: %v; writer beside reader 1: %v", stray, werr == nil)
			if w != nil {
				_ = rw.Unlock(ctx, w)
			}
			_ = rw.RUnlock(ctx, r1)
		})
	}
}

// TestSeedRWWriterStarved: a writer waits while readers hand over to one
// another (each next reader is in before the previous one leaves). The
// correct lock refuses new readers once the writer waits, so the relay
// breaks and the writer gets in; the seed's admits every reader, the
// readers never all leave, and the writer starves.
func TestSeedRWWriterStarved(t *testing.T) {
	for _, impl := range rwImpls {
		t.Run(impl.name, func(t *testing.T) {
			_, dial := seedMini(t)
			ctx := context.Background()
			mk := func(c *redis.Client) locks.RWLocker {
				rw, err := impl.new(c, "relay", seedQuickOpts())
				if err != nil {
					t.Fatal(err)
				}
				return rw
			}
			readers := mk(dial()) // a lease is released by the lock value that issued it
			cur, err := readers.RLock(ctx)
			if err != nil {
				t.Fatal(err)
			}
			wctx, stop := context.WithCancel(ctx)
			defer stop()
			granted := make(chan error, 1)
			var sent atomic.Int64
			wc := dial()
			wc.AddHook(doneHook{&sent})
			go func() {
				_, err := mk(wc).Lock(wctx)
				granted <- err
			}()
			// The writer waits once its first polls have been answered (two
			// at least, whether its script was cached or not).
			seedWaitFor(t, "the writer's first polls", func() bool { return sent.Load() >= 3 })
			steps := relay(ctx, t, readers, &cur, 100)
			_ = readers.RUnlock(ctx, cur)
			var werr error
			select {
			case werr = <-granted:
			case <-time.After(5 * time.Second):
				stop()
				werr = <-granted
			}
			starved := steps == 100
			switch {
			case !impl.broken && (starved || werr != nil):
				t.Errorf("relay ran %d steps, writer = %v: want new readers refused while the writer waits, then a grant", steps, werr)
			case impl.broken && !starved:
				t.Errorf("relay stopped after %d steps: the seed should admit every reader while the writer waits", steps)
			}
			t.Logf("relay ran %d of 100 steps; writer: %v", steps, werr)
		})
	}
}

// relay hands the read lock from reader to reader, each new one taken
// before the previous one is released, for up to n steps; it stops when a
// new reader is refused for 200ms and returns the steps done.
func relay(ctx context.Context, t *testing.T, rw locks.RWLocker, cur **locks.Lease, n int) int {
	for i := range n {
		rctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		next, err := rw.RLock(rctx)
		cancel()
		if err != nil {
			return i
		}
		if err := rw.RUnlock(ctx, *cur); err != nil {
			t.Errorf("relay RUnlock = %v", err)
		}
		*cur = next
	}
	return n
}

// doneHook counts the commands a client has had answered.
type doneHook struct{ n *atomic.Int64 }

func (h doneHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h doneHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		h.n.Add(1)
		return err
	}
}

func (h doneHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := next(ctx, cmds)
		h.n.Add(int64(len(cmds)))
		return err
	}
}
