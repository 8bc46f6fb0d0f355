package explore

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Pool is the many-run runner that every many-seed measurement shares (Run
// here, the report's Measure): it calls run(k) for every k in [0, total)
// on par goroutines (default GOMAXPROCS) and hands each result to collect,
// always from the goroutine that called Pool, in the order the runs
// finish. It stops starting runs when ctx is done, and returns how many
// results it collected; every goroutine it started has ended when it
// returns.
func Pool[T any](ctx context.Context, total, par int, run func(k int) T, collect func(k int, v T)) int {
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	type out struct {
		k int
		v T
	}
	results := make(chan out, par)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(par, max(total, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				k := int(next.Add(1) - 1)
				if k >= total {
					return
				}
				results <- out{k, run(k)}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()
	n := 0
	for r := range results {
		collect(r.k, r.v)
		n++
	}
	return n
}
