package locks_test

import (
	"context"
	"fmt"
	"time"

	"github.com/locksim/locksim/locks"
)

// Options.WithPitfall builds a pattern with one deliberate mistake, to see
// a check catch it: here Basic released by a plain DEL. A holder whose
// lease ran out releases late, and the DEL frees the next holder's lock,
// where the correct Basic's owner check refuses.
func ExampleOptions_WithPitfall() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	for _, p := range []struct {
		name string
		pit  locks.Pitfall
	}{
		{"basic", locks.Pitfall{}},
		{"basic-del", locks.Pitfall{ReleaseScript: `return redis.call('DEL', KEYS[1])`}},
	} {
		opts := locks.Options{TTL: time.Minute}.WithPitfall(p.pit)
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
