package sched

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/sim/vclock"
)

const ms = int64(time.Millisecond)

// run runs s to end and shuts it down, failing t on any error.
func run(t *testing.T, s *Sched, end int64) {
	t.Helper()
	if err := s.RunUntil(end); err != nil {
		t.Fatalf("RunUntil: %v", err)
	}
	if err := s.Shutdown(); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
}

// log records "name@ms" lines in the order Gs reach them.
type log []string

func (l *log) add(s *Sched, what string) {
	*l = append(*l, fmt.Sprintf("%s@%d", what, s.Now()/ms))
}

func (l log) String() string { return strings.Join(l, " ") }

func TestSleepsWakeInTimeOrder(t *testing.T) {
	s := New()
	p := s.NewProc("c1", vclock.New(0))
	var l log
	for _, d := range []int{30, 10, 20, 10} {
		p.Spawn(fmt.Sprint(d), func() {
			_ = p.Sleep(context.Background(), time.Duration(d)*time.Millisecond)
			l.add(s, fmt.Sprint(d))
		})
	}
	run(t, s, 100*ms)
	if got, want := l.String(), "10@10 10@10 20@20 30@30"; got != want {
		t.Errorf("wake order = %q, want %q", got, want)
	}
}

func TestSleepMeasuredOnDriftingClock(t *testing.T) {
	s := New()
	c := vclock.New(0)
	if err := c.SetDrift(0, 250_000); err != nil { // 25% fast: 100ms of its time is 80ms of true time
		t.Fatal(err)
	}
	p := s.NewProc("c1", c)
	var woke int64 = -1
	p.Spawn("main", func() {
		_ = p.Sleep(context.Background(), 100*time.Millisecond)
		woke = s.Now()
	})
	run(t, s, time.Second.Nanoseconds())
	if woke != 80*ms {
		t.Errorf("woke at %v, want 80ms", time.Duration(woke))
	}
}

func TestTimeoutWakesSleeperEarly(t *testing.T) {
	s := New()
	p := s.NewProc("c1", vclock.New(0))
	var err error
	var at int64
	var ctxErr error
	p.Spawn("main", func() {
		ctx, cancel := p.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		err = p.Sleep(ctx, time.Second)
		at, ctxErr = s.Now(), ctx.Err()
	})
	run(t, s, 2*time.Second.Nanoseconds())
	if !errors.Is(err, context.DeadlineExceeded) || at != 10*ms || !errors.Is(ctxErr, context.DeadlineExceeded) {
		t.Errorf("Sleep = %v at %v (ctx.Err %v), want DeadlineExceeded at 10ms", err, time.Duration(at), ctxErr)
	}
}

func TestCancelFromAnotherGoroutine(t *testing.T) {
	s := New()
	p := s.NewProc("c1", vclock.New(0))
	ctx, cancel := context.Context(nil), context.CancelFunc(nil)
	var l log
	p.Spawn("sleeper", func() {
		ctx, cancel = p.WithCancel(context.Background())
		child, stop := p.WithTimeout(ctx, time.Hour)
		defer stop()
		detached := context.WithoutCancel(ctx)
		p.Go(func() {
			err := p.Sleep(detached, 50*time.Millisecond)
			l.add(s, fmt.Sprintf("detached:%v", err))
		})
		err := p.Sleep(child, time.Second)
		l.add(s, fmt.Sprintf("child:%v", err))
	})
	p.Spawn("canceller", func() {
		_ = p.Sleep(context.Background(), 5*time.Millisecond)
		cancel()
		l.add(s, "cancelled")
	})
	run(t, s, 2*time.Second.Nanoseconds())
	want := "cancelled@5 child:context canceled@5 detached:<nil>@50"
	if got := l.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestStdContextDerivedFromCtx: package context's own cancel contexts
// derived from a Ctx are cancelled with it, without a goroutine.
func TestStdContextDerivedFromCtx(t *testing.T) {
	s := New()
	p := s.NewProc("c1", vclock.New(0))
	var derived context.Context
	before := runtime.NumGoroutine()
	var during int
	p.Spawn("main", func() {
		ctx, cancel := p.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		var stop context.CancelFunc
		derived, stop = context.WithCancel(ctx)
		defer stop()
		during = runtime.NumGoroutine()
		_ = p.Sleep(ctx, time.Second)
	})
	run(t, s, time.Second.Nanoseconds())
	if !errors.Is(derived.Err(), context.DeadlineExceeded) {
		t.Errorf("derived.Err() = %v, want DeadlineExceeded", derived.Err())
	}
	// one goroutine for the G itself, one for the scheduler loop and one
	// for the stall monitor
	if during > before+3 {
		t.Errorf("context.WithCancel on a Ctx started goroutines: %d before, %d during", before, during)
	}
}

func TestParallelWaitsForAll(t *testing.T) {
	s := New()
	p := s.NewProc("c1", vclock.New(0))
	var l log
	p.Spawn("main", func() {
		got := make([]int, 3)
		p.Parallel(3, func(i int) {
			_ = p.Sleep(context.Background(), time.Duration(30-10*i)*time.Millisecond)
			got[i] = i + 1
			l.add(s, fmt.Sprint("kid", i))
		})
		l.add(s, fmt.Sprint("parent", got))
	})
	run(t, s, time.Second.Nanoseconds())
	if got, want := l.String(), "kid2@10 kid1@20 kid0@30 parent[1 2 3]@30"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestPauseDefersWakeups(t *testing.T) {
	s := New()
	c1 := s.NewProc("c1", vclock.New(0))
	c2 := s.NewProc("c2", vclock.New(0))
	var l log
	var ctxErrAt int64 = -1
	c1.Spawn("main", func() {
		ctx, cancel := c1.WithTimeout(context.Background(), 15*time.Millisecond)
		defer cancel()
		c1.Go(func() { _ = c1.Sleep(context.Background(), 12*time.Millisecond); l.add(s, "c1.bg") })
		_ = c1.Sleep(context.Background(), 10*time.Millisecond)
		l.add(s, "c1.main")
		if ctx.Err() != nil {
			ctxErrAt = s.Now()
		}
	})
	c2.Spawn("main", func() {
		_ = c2.Sleep(context.Background(), 10*time.Millisecond)
		l.add(s, "c2")
	})
	s.At(5*ms, func() { c1.Pause(20 * time.Millisecond) })
	run(t, s, time.Second.Nanoseconds())
	if got, want := l.String(), "c2@10 c1.main@25 c1.bg@25"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if ctxErrAt != 25*ms {
		t.Errorf("after the pause ctx.Err() was nil (at %v): a deadline passes during a pause", time.Duration(ctxErrAt))
	}
}

func TestWallJumpDoesNotMoveSince(t *testing.T) {
	s := New()
	c := vclock.New(time.Hour)
	p := s.NewProc("c1", c)
	p.TrackWallJumps()
	var elapsed, wallDiff time.Duration
	p.Spawn("main", func() {
		start := p.Now()
		_ = p.Sleep(context.Background(), 100*time.Millisecond)
		elapsed = p.Since(start)
		wallDiff = p.Now().Sub(start)
	})
	s.At(50*ms, func() { c.Jump(-time.Second) })
	run(t, s, time.Second.Nanoseconds())
	if elapsed != 100*time.Millisecond {
		t.Errorf("Since = %v across a wall jump, want 100ms", elapsed)
	}
	if wallDiff != 100*time.Millisecond-time.Second {
		t.Errorf("wall difference = %v, want -900ms", wallDiff)
	}
}

// TestRepeatedWallReadingsStayDistinct: after a backward jump the wall
// clock hands out readings it already gave; Since must still tell them apart.
func TestRepeatedWallReadingsStayDistinct(t *testing.T) {
	s := New()
	c := vclock.New(0)
	p := s.NewProc("c1", c)
	p.TrackWallJumps()
	var first time.Time
	var got time.Duration
	p.Spawn("main", func() {
		first = p.Now() // wall 0 at true 0
		_ = p.Sleep(context.Background(), 100*time.Millisecond)
		c.Jump(-100 * time.Millisecond) // wall is 0 again
		again := p.Now()
		_ = p.Sleep(context.Background(), 10*time.Millisecond)
		got = p.Since(first) - p.Since(again)
	})
	run(t, s, time.Second.Nanoseconds())
	if got != 100*time.Millisecond {
		t.Errorf("readings taken 100ms apart differ by %v in Since", got)
	}
	_ = first
}

// TestYieldKeepsTheWakerOfTheParkToCome: a G takes a Waker for its next
// park, registers it, then yields before parking (a fault fired between a
// call's send and its park). A wake that comes during the Yield — here in
// a pause of its own process that the Yield waits out — is kept for the
// park, which returns it at once; before, the Yield used the Waker up and
// the park waited for ever.
func TestYieldKeepsTheWakerOfTheParkToCome(t *testing.T) {
	for _, paused := range []bool{false, true} {
		s := New()
		p := s.NewProc("c1", vclock.New(0))
		var got any
		var at int64 = -1
		p.Spawn("main", func() {
			g := s.Current()
			w := g.Waker()
			s.At(s.Now()+ms, func() { w.Wake("reply", nil) })
			if paused {
				p.Pause(5 * time.Millisecond)
			}
			_ = g.Yield()
			got, _ = g.Park()
			at = s.Now()
		})
		run(t, s, 100*ms)
		want := ms // the Yield returns at once; the park waits for the wake
		if paused {
			want = 5 * ms
		}
		if got != "reply" || at != want {
			t.Errorf("paused %v: Park returned %v at %v, want the reply at %v", paused, got, time.Duration(at), time.Duration(want))
		}
	}
}
