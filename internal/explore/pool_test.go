package explore

import (
	"context"
	"testing"
)

// TestPoolRunsEveryJobOnce: every k runs once and is collected once, from
// the calling goroutine (collect needs no lock), whatever the parallelism.
func TestPoolRunsEveryJobOnce(t *testing.T) {
	for _, par := range []int{0, 1, 3, 64} {
		seen := make([]int, 50)
		n := Pool(context.Background(), len(seen), par, func(k int) int { return k * k }, func(k, v int) {
			if v != k*k {
				t.Errorf("par %d: collect(%d, %d), want the result of run(%d) = %d", par, k, v, k, k*k)
			}
			seen[k]++
		})
		if n != len(seen) {
			t.Errorf("par %d: Pool collected %d, want %d", par, n, len(seen))
		}
		for k, c := range seen {
			if c != 1 {
				t.Errorf("par %d: job %d collected %d times, want once", par, k, c)
			}
		}
	}
}

// TestPoolStopsWithItsContext: once ctx ends no new run starts.
func TestPoolStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := Pool(ctx, 1000, 2, func(k int) int { return k }, func(int, int) { cancel() })
	if n < 1 || n > 5 { // the first, then at most par buffered and par running
		t.Errorf("Pool collected %d runs after a cancel at the first, want 1 to 5 (those already done or running)", n)
	}
}
