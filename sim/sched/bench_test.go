package sched

import (
	"context"
	"testing"
	"time"

	"github.com/locksim/locksim/sim/vclock"
)

// BenchmarkSleepSwitch measures one timer event plus one hand-off to a G
// and back: the cost the scheduler adds to every simulated wait.
func BenchmarkSleepSwitch(b *testing.B) {
	s := New()
	p := s.NewProc("c1", vclock.New(0))
	n := 0
	p.Spawn("main", func() {
		for p.Sleep(context.Background(), time.Millisecond) == nil {
			n++
		}
	})
	b.ResetTimer()
	for b.Loop() {
		s.step()
	}
	b.StopTimer()
	_ = s.Shutdown()
}
