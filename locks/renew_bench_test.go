package locks

import (
	"context"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// BenchmarkCycle is the per-cycle cost of Acquire+Release on one key over
// miniredis, for the plain lock and the two renewing ones: the renewal
// machinery's share of the hot path is the difference.
func BenchmarkCycle(b *testing.B) {
	m := miniredis.RunT(b)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), ContextTimeoutEnabled: true})
	b.Cleanup(func() { rdb.Close() })
	o := Options{TTL: 10 * time.Second}
	for _, tc := range []struct {
		name string
		new  func() (Locker, error)
	}{
		{"Basic", func() (Locker, error) { return NewBasic(rdb, "b:basic", o) }},
		{"Watchdog", func() (Locker, error) { return NewWatchdog(rdb, "b:wd", o) }},
		{"Service", func() (Locker, error) { return NewService(rdb, "b:se", o) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			l, err := tc.new()
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			for b.Loop() {
				lease, err := l.Acquire(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if err := l.Release(ctx, lease); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
