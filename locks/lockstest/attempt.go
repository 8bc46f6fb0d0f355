package lockstest

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// A backend in real time (real redis-servers) cannot stop the process
// that runs the suite: on a loaded machine the test process itself may
// not run for a while, and a property that sleeps 0.6×TTL and expects the
// lease to hold then finds it expired. Such a backend measures the
// process's stalls (Staller); an attempt of a property that failed while
// the process stalled for more than voidStall of the TTL is void, and the
// property is checked again, at most maxAttempts times in all. A lock
// that breaks a property without a stall fails it on every attempt.

// Staller is a Backend in real time that measures how long the process
// went without running since its last Reset.
type Staller interface {
	// Stall is the longest time since the last Reset that the process did
	// not run (a heartbeat's longest gap).
	Stall() time.Duration
}

const (
	maxAttempts = 3
	voidStall   = 4 // an attempt is void after a stall over TTL/voidStall
)

// attempt is a testing.TB for one attempt of a property: it records the
// failures instead of failing the test, so that a void attempt can be
// told apart and made again.
type attempt struct {
	testing.TB
	mu     sync.Mutex
	failed bool
	msgs   []string
}

func (a *attempt) fail(msg string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.failed = true
	if msg != "" {
		a.msgs = append(a.msgs, msg)
	}
}

func (a *attempt) Error(args ...any)                 { a.fail(fmt.Sprint(args...)) }
func (a *attempt) Errorf(format string, args ...any) { a.fail(fmt.Sprintf(format, args...)) }
func (a *attempt) Fail()                             { a.fail("") }
func (a *attempt) Fatal(args ...any)                 { a.fail(fmt.Sprint(args...)); runtime.Goexit() }
func (a *attempt) Fatalf(format string, args ...any) {
	a.fail(fmt.Sprintf(format, args...))
	runtime.Goexit()
}
func (a *attempt) FailNow() { a.fail(""); runtime.Goexit() }

func (a *attempt) Failed() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.failed
}

// checkAttempts runs check (one property over the backend) until an
// attempt passes, fails without a stall past the TTL/voidStall, or
// maxAttempts are made; the failures of the last attempt fail t.
// stalled is the backend's Stall (nil for a backend in simulated time,
// whose first attempt is the only one).
func checkAttempts(t testing.TB, stalled func() time.Duration, ttl time.Duration, check func(testing.TB)) {
	t.Helper()
	for n := 1; ; n++ {
		a := &attempt{TB: t}
		done := make(chan struct{})
		go func() { // a Fatal ends this goroutine, not the test's
			defer close(done)
			check(a)
		}()
		<-done
		if !a.Failed() {
			return
		}
		stall := time.Duration(0)
		if stalled != nil {
			stall = stalled()
		}
		if stall <= ttl/voidStall || n == maxAttempts {
			for _, m := range a.msgs {
				t.Error(m)
			}
			if stall > ttl/voidStall {
				t.Errorf("(every one of %d attempts failed while the process stalled past TTL/%d; the last stalled %v)", n, voidStall, stall)
			}
			t.FailNow()
		}
		t.Logf("attempt %d of %d void: the process stalled %v (TTL %v) and it failed: %s", n, maxAttempts, stall, ttl, strings.Join(a.msgs, "; "))
	}
}
