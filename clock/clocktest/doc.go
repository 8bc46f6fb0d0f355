// Package clocktest holds ManualClock, the one fake clock.Clock of the
// suite's tests: its time moves only when the test says (Advance) or, for
// tests of one goroutine, when the lock code sleeps (SleepMoves), and
// onStep moves the servers' TTLs with it. It imports only package clock, so
// that the tests of package locks itself can use it; package lockstest
// re-exports it.
//
//	clk := clocktest.NewManualClock(start, func(d time.Duration) { mr.FastForward(d) })
//	defer clk.Close()
//	// build lockers with Options{Clock: clk}, then:
//	_ = clk.Advance(time.Second) // watchdogs renew on the way
package clocktest
