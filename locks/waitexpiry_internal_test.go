package locks

import (
	"context"
	"testing"
	"time"
)

// TestPollAtExpiryOnce: a waiter that meets a holding running out before
// its backoff ends polls once as it runs out (within the jitter of
// 1ms + max(left/64, 1ms)), then sleeps the rest of that backoff and goes
// on with its backoff alone, however short the holdings it meets after:
// it does not wake in step with them. The poll's moment is jittered.
func TestPollAtExpiryOnce(t *testing.T) {
	const backoff, attempts = 100 * time.Millisecond, 4
	peeks := map[time.Duration]bool{}
	for seed := uint64(1); seed <= 8; seed++ {
		c := config{Options: Options{Rand: NewSeededRand(seed, "peek"),
			RetryStrategy: LimitRetry(ConstantBackoff(backoff), attempts)}}
		tries := 0
		var waits []time.Duration
		_, err := c.retryWith(context.Background(), func() (*Lease, error) {
			tries++
			return nil, takenFor(-30, ErrNotAcquired) // 30ms left, every time
		}, func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil })
		if err == nil {
			t.Fatal("retryWith granted; want it to give up")
		}
		if tries != attempts+1 || len(waits) != attempts {
			t.Fatalf("seed %d: %d tries, waits %v; want %d tries (one poll at the expiry beyond the attempts)", seed, tries, waits, attempts+1)
		}
		left := 31 * time.Millisecond // the PTTL, +1ms for its rounding
		if w := waits[0]; w < left || w >= left+time.Millisecond {
			t.Errorf("seed %d: first wait %v, want the holding's %v left and at most 1ms of jitter", seed, w, left)
		}
		if waits[0]+waits[1] != backoff {
			t.Errorf("seed %d: waits %v: the poll at the expiry and the rest of the backoff make %v, want %v", seed, waits[:2], waits[0]+waits[1], backoff)
		}
		for _, w := range waits[2:] {
			if w != backoff {
				t.Errorf("seed %d: waits %v: a later wait %v, want the backoff %v (no second poll at an expiry)", seed, waits, w, backoff)
			}
		}
		peeks[waits[0]] = true
	}
	if len(peeks) < 2 {
		t.Errorf("the poll at the expiry came at %v for 8 seeds: want it jittered", peeks)
	}
}
