package lockkit_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockkit"
)

// TestConfigIsTheResolvedOptions: Resolve fills in the defaults and
// reports the validity and TTL the patterns use; ResolveRenewing checks
// RenewEvery too; both refuse what the constructors refuse.
func TestConfigIsTheResolvedOptions(t *testing.T) {
	c, err := lockkit.Resolve(locks.Options{TTL: 1500*time.Millisecond + 700*time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.TTL(), 1500*time.Millisecond; got != want {
		t.Errorf("TTL() = %v, want %v (whole ms)", got, want)
	}
	if got, want := c.TTLms(), int64(1500); got != want {
		t.Errorf("TTLms() = %d, want %d", got, want)
	}
	// 1500ms − 100ms − (1500ms × 0.01 + 2ms) = 1383ms
	if got, want := c.Validity(100*time.Millisecond), 1383*time.Millisecond; got != want {
		t.Errorf("Validity(100ms) = %v, want %v", got, want)
	}
	if c.Clock() == nil || c.Rand() == nil || c.Options().NodeTimeout != 150*time.Millisecond || c.Options().Retry.Delay != 10*time.Millisecond {
		t.Errorf("defaults not filled in: %+v", c.Options())
	}
	r, err := lockkit.ResolveRenewing(locks.Options{TTL: 300 * time.Millisecond})
	if err != nil || r.Options().RenewEvery != 100*time.Millisecond {
		t.Errorf("ResolveRenewing() RenewEvery = %v, %v; want 100ms, nil", r.Options().RenewEvery, err)
	}
	_, err = lockkit.ResolveRenewing(locks.Options{TTL: time.Second, RenewEvery: time.Second})
	var oe *locks.OptionError
	if !errors.As(err, &oe) || oe.Field != "RenewEvery" {
		t.Errorf("ResolveRenewing(RenewEvery = TTL) = %v, want an OptionError on RenewEvery", err)
	}
	if _, err := lockkit.Resolve(locks.Options{TTL: time.Second, DriftFactor: 0.5}); !errors.As(err, &oe) || oe.Field != "DriftFactor" {
		t.Errorf("Resolve(DriftFactor 0.5) = %v, want an OptionError on DriftFactor", err)
	}
}

// TestConfigRetry: Retry makes the attempts the policy allows, stops at
// an error no retry can cure, and gives up when the context ends.
func TestConfigRetry(t *testing.T) {
	clk := clocktest.NewManualClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), nil)
	clk.SleepMoves = true
	c, err := lockkit.Resolve(locks.Options{TTL: time.Second, Clock: clk, Retry: locks.Retry{Attempts: 3}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	n := 0
	_, err = c.Retry(ctx, func() (*locks.Lease, error) { n++; return nil, locks.ErrNotAcquired })
	if n != 3 || !errors.Is(err, locks.ErrNotAcquired) {
		t.Errorf("Retry on a taken lock: %d attempts, %v; want 3, ErrNotAcquired", n, err)
	}
	n = 0
	_, err = c.Retry(ctx, func() (*locks.Lease, error) { n++; return nil, locks.ErrPermanent })
	if n != 1 || !errors.Is(err, locks.ErrPermanent) {
		t.Errorf("Retry on a permanent error: %d attempts, %v; want 1, ErrPermanent", n, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	n = 0
	_, err = c.Retry(cctx, func() (*locks.Lease, error) { n++; cancel(); return nil, locks.ErrNotAcquired })
	if n != 1 || !errors.Is(err, context.Canceled) || !errors.Is(err, locks.ErrNotAcquired) {
		t.Errorf("Retry after the context ended: %d attempts, %v; want 1, Canceled and ErrNotAcquired", n, err)
	}
	if clk.Since(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)) <= 0 {
		t.Errorf("Retry never slept its backoff on the clock")
	}
}
