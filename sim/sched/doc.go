// Package sched is the simulator's deterministic scheduler: virtual time,
// an event queue ordered by (time, sequence), and simulated goroutines that
// run real code one at a time.
//
// # Model
//
// A Sched owns true time (nanoseconds since vclock.Epoch) and a queue of
// events. RunUntil pops events in (at, seq) order and runs them on a
// goroutine of the scheduler's own while the caller waits (so that a hung
// G can still be reported, see below). Some events resume a simulated
// goroutine (a G), which runs on a coroutine (iter.Pull): the scheduler
// switches to it directly and gets control back when the G parks again or
// exits. Exactly one of {the scheduler, one G} runs at any moment, so a run
// is a deterministic function of its inputs.
//
// A G parks only at a seam: Sleep, a context made by a Proc, Parallel, or a
// call that another package builds on Park and Waker (the simulated Redis
// link, the simulated store). Code that blocks anywhere else (a plain
// channel, a sync.WaitGroup) stalls the run; the scheduler notices after
// StallAfter of real time and fails the run with an error naming the G.
//
// A Proc is one simulated process (a client). It implements clock.Clock:
// Now is its wall clock (true time + offset + drift + jumps), Since its
// monotonic view (drift applies, wall jumps do not), Sleep and context
// deadlines are timer events in true time, Go and Parallel start Gs owned by
// the Proc. A paused Proc (a stop-the-world GC pause) resumes none of its Gs
// until the pause ends: their wake-ups are deferred to the pause's end, in
// the order they happened.
//
// # Ending a run
//
// Shutdown unwinds every live G: each parked G is resumed with ErrStopped,
// and from then on every seam fails at once with ErrStopped, so the code
// under test returns. No goroutine outlives Shutdown.
//
// # Determinism
//
// Checksum mixes every event's (time, sequence) and every hand-off's G id:
// two runs of the same inputs have the same checksum, and any difference in
// scheduling changes it.
//
// # Usage
//
//	s := sched.New()
//	c1 := s.NewProc("c1", vclock.New(0))
//	c1.Spawn("main", func() { _ = c1.Sleep(context.Background(), time.Second) })
//	err := s.RunUntil(int64(10 * time.Second))
//	err = errors.Join(err, s.Shutdown())
package sched
