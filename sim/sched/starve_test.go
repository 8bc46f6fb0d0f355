package sched

import (
	"context"
	"testing"
	"time"

	"github.com/locksim/locksim/sim/vclock"
)

// TestStarveStopsOnlyBackgroundGs: a starved process runs its spawned Gs
// on; those started by Go (and their Parallel children) resume only when
// the starvation ends.
func TestStarveStopsOnlyBackgroundGs(t *testing.T) {
	s := New()
	c1 := s.NewProc("c1", vclock.New(0))
	var l log
	c1.Spawn("main", func() {
		c1.Go(func() {
			_ = c1.Sleep(context.Background(), 10*time.Millisecond)
			c1.Parallel(2, func(i int) {
				_ = c1.Sleep(context.Background(), time.Millisecond)
				if i == 0 {
					l.add(s, "c1.par")
				}
			})
			l.add(s, "c1.bg")
		})
		_ = c1.Sleep(context.Background(), 10*time.Millisecond)
		l.add(s, "c1.main")
	})
	s.At(5*ms, func() { c1.Starve(20 * time.Millisecond) })
	run(t, s, time.Second.Nanoseconds())
	if got, want := l.String(), "c1.main@10 c1.par@26 c1.bg@26"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
