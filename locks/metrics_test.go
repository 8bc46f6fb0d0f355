package locks_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

// TestEveryPatternHonoursMetrics: Options.Metrics counts the attempts,
// grants, wait times, failures and releases of every pattern.
func TestEveryPatternHonoursMetrics(t *testing.T) {
	for _, p := range patterns {
		t.Run(p.name, func(t *testing.T) {
			nodes := make([]locks.Redis, p.nodes)
			for i := range nodes {
				rdb := redis.NewClient(&redis.Options{Addr: miniredis.RunT(t).Addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
				t.Cleanup(func() { rdb.Close() })
				nodes[i] = rdb
			}
			mk := func(ms *locks.Metrics) locks.Locker {
				l, err := p.new(nodes, "metrics:"+p.name, locks.Options{TTL: time.Minute, Metrics: ms, Retry: locks.Retry{Attempts: 1}})
				if err != nil {
					t.Fatal(err)
				}
				return l
			}
			ms, other := &locks.Metrics{}, &locks.Metrics{}
			holder, rival := mk(ms), mk(other)
			l, err := holder.Acquire(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := rival.Acquire(context.Background()); err == nil || errors.Is(err, locks.ErrPermanent) {
				t.Fatalf("rival Acquire = %v, want taken", err)
			}
			if err := holder.Release(context.Background(), l); err != nil {
				t.Fatal(err)
			}
			got, want := ms.Snapshot(), locks.Snapshot{Acquired: 1, Attempts: 1, Released: 1}
			if got != want {
				t.Errorf("holder's metrics = %+v, want %+v", got, want)
			}
			if n := ms.Waits.Snapshot().Count; n != 1 {
				t.Errorf("holder's wait histogram counts %d, want 1", n)
			}
			if got := other.Snapshot(); got.Failed != 1 || got.Attempts != 1 {
				t.Errorf("rival's metrics = %+v, want 1 attempt, 1 failure", got)
			}
		})
	}
}
