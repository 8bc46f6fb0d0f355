package network

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/sim/sched"
)

// TestSentHookYieldKeepsTheCall: a fault fired at the moment a request is
// sent yields the caller (sim's call points) before it parks for the
// reply. The reply, the read timeout and the context still reach the call
// afterwards: it returns, on each of the three, instead of parking for
// ever with its Waker used up by the Yield.
func TestSentHookYieldKeepsTheCall(t *testing.T) {
	for _, tc := range []struct {
		name     string
		slow     bool          // the reply comes after the read timeout
		deadline time.Duration // the caller's context (0: none)
		want     func(error) bool
	}{
		{"reply", false, 0, func(err error) bool { return err == nil }},
		{"read-timeout", true, 0, func(err error) bool { var te *TimeoutError; return errors.As(err, &te) }},
		{"deadline", true, 20 * time.Millisecond, func(err error) bool { return errors.Is(err, context.DeadlineExceeded) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, 1, 1, fixed)
			w.net.Timeout = 50 * time.Millisecond
			if tc.slow {
				w.net.Link(0, 0).Slow(Reply, time.Second)
			}
			w.net.Sent = func(_, _ int, g *sched.G) { _ = g.Yield() }
			r := w.net.NewRedisClient(0, 0)
			returned := false
			var err error
			p := w.clients[0]
			p.Spawn("main", func() {
				ctx := context.Background()
				if tc.deadline > 0 {
					var cancel context.CancelFunc
					ctx, cancel = p.WithTimeout(ctx, tc.deadline)
					defer cancel()
				}
				err = r.SetNX(ctx, "k", "v", time.Minute).Err()
				returned = true
			})
			w.run(t, 2*time.Second)
			if !returned || !tc.want(err) {
				t.Errorf("SetNX returned %v with %v: want it to return on the %s", returned, err, tc.name)
			}
		})
	}
}

// TestOrphanedCallIsASimulatorDefect: a hook that parks the caller on a
// wait of its own, between the send and the call's park, leaves the call
// with no Waker that can resume it. When its read timeout passes, the run
// fails with sched.ErrDefect naming the call, instead of leaving a client
// silently stuck.
func TestOrphanedCallIsASimulatorDefect(t *testing.T) {
	w := newWorld(t, 1, 1, fixed)
	w.net.Timeout = 50 * time.Millisecond
	p := w.clients[0]
	w.net.Sent = func(_, _ int, g *sched.G) { _ = p.Sleep(context.Background(), time.Millisecond) }
	r := w.net.NewRedisClient(0, 0)
	p.Spawn("main", func() { _ = r.SetNX(context.Background(), "k", "v", time.Minute).Err() })
	err := w.s.RunUntil(int64(time.Second))
	if !errors.Is(err, sched.ErrDefect) || !strings.Contains(err.Error(), "c1/main's call SET k v") || !strings.Contains(err.Error(), "outlived its read timeout (50ms)") {
		t.Fatalf("RunUntil = %v, want a simulator defect naming c1's SET and its 50ms read timeout", err)
	}
	_ = w.s.Shutdown()
}
