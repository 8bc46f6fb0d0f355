package broken

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

// fairImpl is a fair lock under test: the correct one or the seed's.
type fairImpl struct {
	name   string
	broken bool
	new    func(r locks.Redis, name string, o locks.Options) (locks.Locker, error)
	queued func(admin *redis.Client, name string) int
}

var fairImpls = []fairImpl{
	{"locks.Fair", false,
		func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) { return locks.NewFair(r, n, o) },
		func(admin *redis.Client, n string) int {
			info, err := locks.Inspect(context.Background(), admin, n, locks.KindFair)
			if err != nil {
				panic(err)
			}
			return info.Queue
		}},
	{"SeedFair", true,
		func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) { return NewSeedFair(r, n, o) },
		func(admin *redis.Client, n string) int {
			_, queue := SeedFairKeys(n)
			return int(admin.ZCard(context.Background(), queue).Val())
		}},
}

// TestSeedFairClockSkewReordersQueue: client A queues first, but its clock
// runs 1s ahead of client B's, which queues second. The correct lock
// grants A then B; the seed's, ordering by client clocks, grants B first.
func TestSeedFairClockSkewReordersQueue(t *testing.T) {
	for _, impl := range fairImpls {
		t.Run(impl.name, func(t *testing.T) {
			_, dial := seedMini(t)
			ctx, name, admin := context.Background(), "skew", dial()
			mk := func(off time.Duration) locks.Locker {
				o := seedQuickOpts()
				o.Clock = seedSkewed{off: off}
				l, err := impl.new(dial(), name, o)
				if err != nil {
					t.Fatal(err)
				}
				return l
			}
			holder := mk(0)
			hl, err := holder.Acquire(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var order []string
			var wg sync.WaitGroup
			for i, c := range []struct {
				who string
				off time.Duration
			}{{"A", time.Second}, {"B", 0}} {
				l := mk(c.off)
				wg.Go(func() {
					lease, err := l.Acquire(ctx)
					if err != nil {
						t.Errorf("%s: Acquire = %v", c.who, err)
						return
					}
					mu.Lock()
					order = append(order, c.who)
					mu.Unlock()
					_ = l.Release(ctx, lease)
				})
				seedWaitFor(t, fmt.Sprintf("%d queued", i+1), func() bool { return impl.queued(admin, name) == i+1 })
			}
			if err := holder.Release(ctx, hl); err != nil {
				t.Fatal(err)
			}
			wg.Wait()
			fifo := fmt.Sprint(order) == "[A B]"
			switch {
			case !impl.broken && !fifo:
				t.Errorf("grant order = %v, want [A B] (arrival order)", order)
			case impl.broken && fifo:
				t.Errorf("grant order = %v: the seed's client-clock queue should have put B (clock behind) first", order)
			}
			t.Logf("grant order %v", order)
		})
	}
}

// TestSeedFairAbandonedWaiterBlocks: waiter A crashes right after its first
// command, leaving its queue entry behind; the holder then releases. The
// correct lock grants the next waiter once A's entry expires; in the
// seed's, A crashed between ZADD and EXPIRE, its entry has no expiry and
// stays at the head, and B is never granted.
func TestSeedFairAbandonedWaiterBlocks(t *testing.T) {
	for _, impl := range fairImpls {
		t.Run(impl.name, func(t *testing.T) {
			m, dial := seedMini(t)
			ctx, name := context.Background(), "abandoned"
			clk := seedStepClock(m)
			mk := func(r locks.Redis, who string, attempts int) locks.Locker {
				o := locks.Options{TTL: time.Second, Clock: clk, Rand: locks.NewSeededRand(3, who),
					Retry: locks.Retry{Attempts: attempts, Delay: 10 * time.Millisecond, MaxDelay: 50 * time.Millisecond}}
				l, err := impl.new(r, name, o)
				if err != nil {
					t.Fatal(err)
				}
				return l
			}
			holder := mk(dial(), "h", 1)
			hl, err := holder.Acquire(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := mk(&seedCrashing{Redis: dial()}, "a", 3).Acquire(ctx); !errors.Is(err, errSeedCrashed) {
				t.Fatalf("crashing waiter: Acquire = %v, want the crash", err)
			}
			if err := holder.Release(ctx, hl); err != nil {
				t.Fatal(err)
			}
			begin := clk.Now()
			// Up to ~15s of virtual time. The waiter's Redis hides the
			// Blocker: a BLPOP would wait in real time, and this clock moves
			// only when the lock code sleeps through it.
			_, err = mk(struct{ locks.Redis }{dial()}, "b", 300).Acquire(ctx)
			waited := clk.Since(begin)
			switch {
			case !impl.broken && err != nil:
				t.Errorf("Acquire behind a crashed waiter = %v after %v, want a grant once its entry expired", err, waited)
			case impl.broken && err == nil:
				t.Errorf("Acquire behind a crashed waiter granted after %v: the seed's abandoned entry should block the queue", waited)
			}
			t.Logf("after %v of virtual time: %v", waited, err)
		})
	}
}
