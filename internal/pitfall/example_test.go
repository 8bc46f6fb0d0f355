package pitfall_test

import (
	"context"
	"fmt"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/locksim/locksim/internal/pitfall"
	"github.com/locksim/locksim/locks"
	"github.com/redis/go-redis/v9"
)

// With builds a pattern with one deliberate mistake, to see
// a check catch it: here Basic released by a plain DEL. A holder whose
// lease ran out releases late, and the DEL frees the next holder's lock,
// where the correct Basic's owner check refuses.
func ExampleWith() {
	m, err := miniredis.Run()
	if err != nil {
		panic(err)
	}
	defer m.Close()
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), ContextTimeoutEnabled: true})
	defer rdb.Close()
	ctx := context.Background()
	for _, p := range []struct {
		name string
		pit  pitfall.Pitfall
	}{
		{"basic", pitfall.Pitfall{}},
		{"basic-del", pitfall.Pitfall{ReleaseScript: `return redis.call('DEL', KEYS[1])`}},
	} {
		opts := pitfall.With(locks.Options{TTL: time.Minute}, p.pit)
		a, _ := locks.NewBasic(rdb, "job", opts)
		b, _ := locks.NewBasic(rdb, "job", opts)
		late, _ := a.Acquire(ctx)
		m.FastForward(2 * time.Minute) // a's key expires (its holder paused)
		held, _ := b.Acquire(ctx)
		err := a.Release(ctx, late) // a's late release
		fmt.Printf("%s: late release: %v; b's key there: %v\n", p.name, err, m.Exists("job"))
		_ = b.Release(ctx, held)
	}
	// Output:
	// basic: late release: release "job": locks: lock not held; b's key there: true
	// basic-del: late release: <nil>; b's key there: false
}
