package sched

import (
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"
	"time"
)

// ErrStopped is what every seam returns once the run is over: code under
// test sees an error it can only give up on, and returns.
var ErrStopped = errors.New("sim: run stopped")

// ErrDefect marks a failure of the simulator itself, not of the code under
// test: a run that fails with it proves nothing about the lock, and its
// replay is a bug report against the simulator.
var ErrDefect = errors.New("simulator defect")

// DefaultStallAfter is how long (real time) a single step of a G may run
// before the run fails as stalled.
const DefaultStallAfter = time.Minute

// stopCallLimit bounds the seam calls one G may make after the run stopped:
// code that ignores ErrStopped and loops forever is made to panic instead.
const stopCallLimit = 100_000

// Sched is a deterministic scheduler. Its methods are called from the
// goroutine that calls RunUntil or from the G it is running; it is not safe
// for any other concurrent use.
type Sched struct {
	// StallAfter bounds, in real time, one step of a G (default
	// DefaultStallAfter). It is the only use of real time in a run and it
	// only ever turns a hung run into an error.
	StallAfter time.Duration
	// AfterEvent, if set, runs on the scheduler after each event (and the
	// steps of the Gs it resumed), at the event's true time: an observer
	// that reads state the Gs changed, exactly when they changed it. It
	// must not schedule events or resume Gs.
	AfterEvent func()
	// MaxEvents, if positive, bounds the events a run may take: RunUntil
	// stops with ErrEventLimit once that many have run.
	MaxEvents uint64
	// Watch, if set, runs before the first event and then every
	// WatchEvery events; an error it returns stops the run with it.
	Watch func() error

	now      int64
	seq      uint64
	q        queue
	cur      *G
	live     []*G
	idle     []*worker
	procs    []*Proc
	nextID   int
	stopping bool
	broken   bool
	failure  error
	stopCall int
	// loopExit, after a stall, receives when the scheduler loop left
	// blocked on the hung G gets control back and ends (tests wait on it).
	loopExit chan any

	sum      uint64
	events   uint64
	switches uint64
	progress atomic.Uint64
}

// New returns a scheduler at true time 0 with an empty queue.
func New() *Sched {
	return &Sched{}
}

// Now is the current true time, in nanoseconds since vclock.Epoch.
func (s *Sched) Now() int64 { return s.now }

// At schedules fn to run on the scheduler at true time t (or now, if t is
// in the past). Events at the same time run in the order they were added.
// Once the run is stopping, time no longer moves: later events are dropped.
func (s *Sched) At(t int64, fn func()) { s.AtRun(t, runFunc(fn)) }

// Runner is an event's work, for AtRun.
type Runner interface{ Run() }

// runFunc is a func as a Runner (a func is stored in an interface as is).
type runFunc func()

func (f runFunc) Run() { f() }

// AtRun is At for a Runner: a caller that keeps its state in a struct
// schedules a pointer to it, without making a closure per event.
func (s *Sched) AtRun(t int64, r Runner) {
	t = max(t, s.now)
	if s.stopping && t > s.now {
		return
	}
	s.seq++
	s.q.push(event{at: t, seq: s.seq, r: r})
}

// After schedules fn d nanoseconds from now.
func (s *Sched) After(d int64, fn func()) { s.At(s.now+d, fn) }

// Current is the running G, or nil when the scheduler itself runs.
func (s *Sched) Current() *G { return s.cur }

// Stopping reports whether the run has ended and Gs are being unwound.
func (s *Sched) Stopping() bool { return s.stopping }

// Checksum is a digest of every scheduling decision so far.
func (s *Sched) Checksum() uint64 { return s.sum }

// Stats counts what the scheduler did.
type Stats struct {
	Events   uint64 // events run
	Switches uint64 // hand-offs to a G
	Live     int    // Gs not yet exited
}

// Stats returns the counters so far.
func (s *Sched) Stats() Stats {
	return Stats{Events: s.events, Switches: s.switches, Live: len(s.live)}
}

func (s *Sched) mix(x uint64) {
	s.sum = bits.RotateLeft64(s.sum^x, 27)*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019
}

// WatchEvery is how many events pass between two calls of Sched.Watch.
const WatchEvery = 1 << 16

// ErrEventLimit is the failure of a run that reached Sched.MaxEvents.
var ErrEventLimit = errors.New("sched: the run reached its event limit")

// fail records the first failure; the run stops at the next event.
func (s *Sched) fail(err error) {
	if s.failure == nil {
		s.failure = err
	}
}

// Fail stops the run with err (the first failure wins); RunUntil returns it.
func (s *Sched) Fail(err error) { s.fail(err) }

// RunUntil runs events in order until the queue is empty, the next event is
// later than end, or a G failed. The clock is left at the last event run.
func (s *Sched) RunUntil(end int64) error {
	if s.broken {
		return s.failure
	}
	s.guard(func() {
		for s.failure == nil && s.q.len() > 0 && s.q.peekAt() <= end {
			if s.MaxEvents > 0 && s.events >= s.MaxEvents {
				s.fail(ErrEventLimit)
				break
			}
			if s.Watch != nil && s.events%WatchEvery == 0 {
				if err := s.Watch(); err != nil {
					s.fail(err)
					break
				}
			}
			s.step()
		}
	})
	return s.failure
}

func (s *Sched) step() {
	ev := s.q.pop()
	s.now = ev.at
	s.events++
	s.mix(uint64(ev.at))
	s.mix(ev.seq)
	s.progress.Add(1)
	ev.r.Run()
	if s.AfterEvent != nil {
		s.AfterEvent()
	}
}

// handoff resumes g with m and waits until it parks or exits: a direct
// switch to g's worker coroutine and back.
func (s *Sched) handoff(g *G, m wakeMsg) {
	s.cur = g
	s.switches++
	s.mix(uint64(g.id))
	g.msg = m
	s.progress.Add(1) // after s.cur is set: the stall monitor names s.cur
	g.w.next()
	g.msg = wakeMsg{}
	s.cur = nil
	s.progress.Add(1)
}

func (s *Sched) stallAfter() time.Duration {
	if s.StallAfter > 0 {
		return s.StallAfter
	}
	return DefaultStallAfter
}

// guard runs the scheduler loop f on a goroutine of its own, watched by a
// real-time monitor: if no event or hand-off completes within StallAfter
// (a G blocks outside the simulator's seams, so its coroutine never hands
// control back), guard returns with the run failed and broken, leaving f
// blocked on the hung G. A panic of f is raised again on the caller.
func (s *Sched) guard(f func()) {
	done, stalled := make(chan any, 1), make(chan struct{})
	go func() {
		finished := false
		defer func() {
			r := recover()
			if r == nil && !finished {
				r = errGoexit
			}
			done <- r
		}()
		f()
		finished = true
	}()
	stop := s.watchStalls(stalled)
	defer stop()
	select {
	case r := <-done:
		if r == errGoexit {
			s.fail(fmt.Errorf("sim: goroutine %s called runtime.Goexit", gName(s.cur)))
			s.broken = true
		} else if r != nil {
			panic(r)
		}
	case <-stalled:
		s.broken = true
		s.fail(fmt.Errorf("sim: goroutine %s did not return to the scheduler within %v: it blocks outside the simulator's seams (a plain channel, a WaitGroup, a mutex held across a seam)", gName(s.cur), s.stallAfter()))
		s.loopExit = done
	}
}

// errGoexit marks a scheduler loop ended by runtime.Goexit.
var errGoexit = errors.New("goexit")

func gName(g *G) string {
	if g == nil {
		return "the scheduler"
	}
	return g.Name()
}

// watchStalls starts the real-time monitor that closes stalled when no
// progress is made for StallAfter; the returned func stops it and waits
// for it.
func (s *Sched) watchStalls(stalled chan struct{}) (stop func()) {
	quit, exited := make(chan struct{}), make(chan struct{})
	limit := s.stallAfter()
	go func() {
		defer close(exited)
		tick := time.NewTicker(limit / 4)
		defer tick.Stop()
		last, since := s.progress.Load(), time.Duration(0)
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
			}
			if p := s.progress.Load(); p != last {
				last, since = p, 0
				continue
			}
			if since += limit / 4; since >= limit {
				close(stalled)
				return
			}
		}
	}()
	return func() { close(quit); <-exited }
}

// Shutdown ends the run: it drops pending events and resumes every parked
// G with ErrStopped, lowest id first, until all have exited. It returns the
// run's failure, if any, or an error if some G would not exit.
func (s *Sched) Shutdown() error {
	if s.broken {
		return s.failure
	}
	s.stopping = true
	s.q.clear()
	for _, p := range s.procs {
		p.deferred = nil
	}
	s.guard(s.unwind)
	if !s.broken {
		s.stopWorkers()
	}
	return s.failure
}

// unwind resumes the parked Gs one by one until all have exited.
func (s *Sched) unwind() {
	for len(s.live) > 0 {
		if !s.killOne() {
			s.fail(fmt.Errorf("sim: %d goroutines would not unwind (first: %s)", len(s.live), s.live[0].Name()))
			return
		}
		for s.q.len() > 0 {
			s.step()
		}
	}
}

// killOne resumes the lowest-id parked G that is not waiting for children.
func (s *Sched) killOne() bool {
	for _, g := range s.live {
		if g.parked && g.kids == 0 {
			Waker{g: g, gen: g.gen, yield: g.yielding}.Wake(nil, ErrStopped)
			return true
		}
	}
	return false
}
