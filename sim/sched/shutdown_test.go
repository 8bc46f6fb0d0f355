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

// waitGoroutines waits (real time, generously) for the goroutine count to
// fall back to want.
func waitGoroutines(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > want {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines remain, want %d:\n%s", runtime.NumGoroutine(), want, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond)
	}
}

func TestShutdownUnwindsEveryGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	s := New()
	p := s.NewProc("c1", vclock.New(0))
	var errs []string
	note := func(what string, err error) { errs = append(errs, fmt.Sprintf("%s:%v", what, err)) }
	p.Spawn("sleeper", func() { note("sleep", p.Sleep(context.Background(), time.Hour)) })
	p.Spawn("forever", func() {
		_, err := s.Current().Park() // nothing will ever wake it
		note("park", err)
	})
	p.Spawn("parallel", func() {
		p.Parallel(2, func(i int) { note(fmt.Sprint("kid", i), p.Sleep(context.Background(), time.Hour)) })
		note("parallel", nil)
	})
	p.Spawn("looper", func() { // retries until told to stop, as lock code does
		for p.Sleep(context.Background(), time.Millisecond) == nil {
		}
		note("looper", ErrStopped)
	})
	s.At(time.Second.Nanoseconds(), func() { p.Pause(time.Hour) }) // a paused process unwinds too
	run(t, s, 2*time.Second.Nanoseconds())
	if st := s.Stats(); st.Live != 0 {
		t.Fatalf("%d Gs live after Shutdown", st.Live)
	}
	want := "sleep:sim: run stopped park:sim: run stopped looper:sim: run stopped kid0:sim: run stopped kid1:sim: run stopped parallel:<nil>" // by G id
	if got := strings.Join(errs, " "); got != want {
		t.Errorf("unwind order/errors:\n got %s\nwant %s", got, want)
	}
	waitGoroutines(t, before)
}

func TestPanicFailsTheRunAndUnwinds(t *testing.T) {
	before := runtime.NumGoroutine()
	s := New()
	p := s.NewProc("c1", vclock.New(0))
	p.Spawn("bystander", func() { _ = p.Sleep(context.Background(), time.Hour) })
	p.Spawn("bad", func() {
		_ = p.Sleep(context.Background(), time.Millisecond)
		panic("boom")
	})
	err := s.RunUntil(time.Second.Nanoseconds())
	if err == nil || !strings.Contains(err.Error(), "c1/bad panicked: boom") {
		t.Fatalf("RunUntil = %v, want the panic named", err)
	}
	if s.Now() != time.Millisecond.Nanoseconds() {
		t.Errorf("run went on to %v after the panic", time.Duration(s.Now()))
	}
	if err2 := s.Shutdown(); !errors.Is(err2, err) && err2 != err {
		t.Errorf("Shutdown = %v, want the same failure", err2)
	}
	waitGoroutines(t, before)
}

func TestIgnoringErrStoppedPanicsInsteadOfHanging(t *testing.T) {
	s := New()
	p := s.NewProc("c1", vclock.New(0))
	p.Spawn("deaf", func() {
		for {
			_ = p.Sleep(context.Background(), time.Millisecond)
		}
	})
	_ = s.RunUntil(10 * time.Millisecond.Nanoseconds())
	err := s.Shutdown()
	if err == nil || !strings.Contains(err.Error(), "ignores") {
		t.Fatalf("Shutdown = %v, want an error saying the goroutine ignores ErrStopped", err)
	}
}

func TestStallIsReported(t *testing.T) {
	s := New()
	s.StallAfter = 200 * time.Millisecond
	p := s.NewProc("c1", vclock.New(0))
	block := make(chan struct{})
	p.Spawn("stuck", func() { <-block })
	err := s.RunUntil(time.Second.Nanoseconds())
	if err == nil || !strings.Contains(err.Error(), "c1/stuck") {
		t.Fatalf("RunUntil = %v, want a stall naming c1/stuck", err)
	}
	if err := s.Shutdown(); err == nil {
		t.Error("Shutdown after a stall = nil, want the stall error")
	}
	close(block)
	<-s.loopExit // the stuck G exits once unblocked, and the loop left on it ends
}

// scenario runs a small mixed program and returns its checksum and log.
func scenario(jitter int) (uint64, string) {
	s := New()
	var l log
	for i := range 3 {
		p := s.NewProc(fmt.Sprint("c", i), vclock.New(0))
		p.Spawn("main", func() {
			for k := range 5 {
				ctx, cancel := p.WithTimeout(context.Background(), time.Duration(7+i)*time.Millisecond)
				_ = p.Sleep(ctx, time.Duration(3*k+i+jitter)*time.Millisecond)
				cancel()
				p.Parallel(2, func(j int) { _ = p.Sleep(context.Background(), time.Duration(j+1)*time.Millisecond) })
				l.add(s, p.Name())
			}
		})
	}
	_ = s.RunUntil(time.Second.Nanoseconds())
	_ = s.Shutdown()
	return s.Checksum(), l.String()
}

func TestChecksumIsDeterministic(t *testing.T) {
	a, la := scenario(0)
	b, lb := scenario(0)
	if a != b || la != lb {
		t.Fatalf("same program, different runs: %x %q vs %x %q", a, la, b, lb)
	}
	if c, _ := scenario(1); c == a {
		t.Errorf("different schedules gave the same checksum %x", a)
	}
}

func TestTimeStandsStillWhileUnwinding(t *testing.T) {
	s := New()
	p := s.NewProc("c1", vclock.New(0))
	p.Spawn("main", func() {
		for {
			ctx, cancel := p.WithTimeout(context.Background(), time.Second)
			err := p.Sleep(ctx, time.Hour)
			cancel()
			if err != nil && s.Stopping() {
				return
			}
		}
	})
	run(t, s, 10*ms)
	if s.Now() > 10*ms {
		t.Errorf("Shutdown moved time to %v", time.Duration(s.Now()))
	}
}
