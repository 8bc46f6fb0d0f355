package sched

import (
	"fmt"
	"iter"
	"runtime/debug"
)

// G is a simulated goroutine: a real goroutine that runs only when the
// scheduler hands it control, until it parks or exits.
type G struct {
	s      *Sched
	id     int
	name   string // "" for a numbered G: Name builds it from kind and n
	kind   string // "go" or "par" for a G of Proc.Go or Proc.Parallel
	n      int
	proc   *Proc
	fn     func()
	par    func(int) // for a Parallel child, instead of fn: par(pi)
	pi     int
	w      *worker
	msg    wakeMsg // what the hand-off that resumes it carries
	gen    uint64  // park generation: a Waker of an older one is stale
	parked bool
	// yielding: parked in a Yield, which only the Yield's own wake-up
	// resumes and which keeps the generation. A wake of that generation
	// that comes meanwhile is for the park the G was about to make (a
	// call's reply, its timeout): it is kept in pending, the first wins,
	// and the next Park returns it at once.
	yielding bool
	pending  *wakeMsg
	done     bool
	kids     int // Parallel children still running
	parent   *G
	bg       bool // started by Proc.Go: background work, which starving stops
}

type wakeMsg struct {
	val any
	err error
}

// Root is the G that started g through Parallel, transitively: g itself
// when g was not started by Parallel.
func (g *G) Root() *G {
	for g.parent != nil {
		g = g.parent
	}
	return g
}

// Name is the G's name, e.g. "c1/main" or "c1/par3" (built on demand: a
// run starts many short Gs and rarely names them).
func (g *G) Name() string {
	if g.name == "" && g.kind != "" {
		return fmt.Sprintf("%s/%s%d", g.proc.name, g.kind, g.n)
	}
	return g.name
}

// Proc is the process that owns g (nil for a scheduler-level G).
func (g *G) Proc() *Proc { return g.proc }

// Waker wakes one particular park of one G. Obtain it from the running G
// before registering it with whatever will wake it, then call Park.
type Waker struct {
	g     *G
	gen   uint64
	yield bool // the wake-up of a Yield, which keeps the generation
}

// Waker returns a Waker for g's next park. A Yield in between (a fault
// fired at a call point yields the calling G after its request is sent)
// does not make it stale: what it wakes with meanwhile is kept for that
// park.
func (g *G) Waker() Waker { return Waker{g: g, gen: g.gen} }

// G is the goroutine this Waker wakes.
func (w Waker) G() *G { return w.g }

// Wake resumes the park w was made for, making Park return (val, err). A
// Waker whose park has already been woken is stale and does nothing, so
// several sources (a reply, a timeout, a cancellation) may race for one
// park and the first wins. Called from a G, the wake is queued as an event
// at the current time; called from the scheduler, it runs the G at once —
// unless the G's Proc is paused (or starved, and the G is background
// work), in which case the wake is deferred to the end of the pause.
func (w Waker) Wake(val any, err error) {
	g := w.g
	s := g.s
	if g.done || !g.parked || g.gen != w.gen {
		return
	}
	if s.cur != nil {
		s.At(s.now, func() { w.Wake(val, err) })
		return
	}
	if p := g.proc; p != nil && p.holds(g) && !s.stopping {
		p.deferred = append(p.deferred, deferredWake{w, wakeMsg{val, err}})
		return
	}
	if g.yielding && !w.yield && !s.stopping {
		if g.pending == nil {
			g.pending = &wakeMsg{val, err}
		}
		return
	}
	g.parked = false
	if !w.yield {
		g.gen++
	}
	g.yielding = false
	s.handoff(g, wakeMsg{val, err})
}

// Orphaned reports whether w's G is parked where w cannot wake it: w is
// stale, and the G waits in a park of its own (not a Yield, not for
// Parallel children) that nothing holding w knows of. A call whose Waker
// is orphaned while the call is still in flight will never return.
func (w Waker) Orphaned() bool {
	g := w.g
	return !g.done && g.parked && !g.yielding && g.kids == 0 && g.gen != w.gen
}

// Stale reports whether w can no longer wake its G: its park has been
// woken, or a wake of it is already kept while the G yields.
func (w Waker) Stale() bool {
	g := w.g
	return g.done || g.gen != w.gen || (!w.yield && g.pending != nil)
}

// Park hands control back to the scheduler until a Waker of this park is
// woken, and returns what it was woken with. Only the running G may park.
// Once the run is stopping, Park returns ErrStopped at once.
// A wake kept while the G yielded (see Waker) returns at once.
func (g *G) Park() (any, error) { return g.park(false) }

func (g *G) park(yield bool) (any, error) {
	s := g.s
	if s.cur != g {
		panic(fmt.Sprintf("sched: %s parked while not running", g.Name()))
	}
	if s.stopping {
		g.gen++
		g.pending = nil
		if s.stopCall++; s.stopCall > stopCallLimit {
			panic(fmt.Sprintf("sched: %s keeps calling seams after the run stopped: it ignores %v", g.Name(), ErrStopped))
		}
		return nil, ErrStopped
	}
	if m := g.pending; m != nil && !yield {
		g.pending = nil
		g.gen++
		return m.val, m.err
	}
	g.parked, g.yielding = true, yield
	g.w.yield(struct{}{})
	return g.msg.val, g.msg.err
}

// Yield parks the running G and resumes it at the current time, after the
// events already queued for this instant (later, if its process is paused
// meanwhile). It keeps the G's park generation: a Waker obtained before
// the Yield still wakes the park that follows it.
func (g *G) Yield() error {
	w := Waker{g: g, gen: g.gen, yield: true}
	g.s.At(g.s.now, func() { w.Wake(nil, nil) })
	_, err := g.park(true)
	return err
}

// worker is a coroutine (iter.Pull) that runs Gs one after another, so
// that a run that starts many short Gs (Redlock's fan-out) does not pay for
// a new goroutine and its stack growth each time. The scheduler resumes it
// with next; it hands control back with yield, a direct switch between the
// two goroutines that costs a fraction of a channel hand-off (no run queue,
// no channel lock), and stop ends it.
type worker struct {
	next  func() (struct{}, bool)
	stop  func()
	yield func(struct{}) bool
	g     *G // the G it runs
}

// spawn creates a G that will start running fn at the current time.
func (s *Sched) spawn(p *Proc, name string, parent *G, fn func()) *G {
	g := &G{s: s, id: s.nextID, name: name, proc: p, fn: fn, parent: parent, parked: true}
	s.nextID++
	s.live = append(s.live, g)
	if n := len(s.idle); n > 0 {
		g.w = s.idle[n-1]
		s.idle = s.idle[:n-1]
	} else {
		g.w = newWorker()
	}
	g.w.g = g
	s.AtRun(s.now, (*gStart)(g))
	return g
}

// gStart is a new G's first wake-up, as an event.
type gStart G

// Run wakes the G's first park (generation 0: it has not run yet).
func (t *gStart) Run() { Waker{g: (*G)(t)}.Wake(nil, nil) }

func newWorker() *worker {
	w := &worker{}
	w.next, w.stop = iter.Pull(w.loop)
	return w
}

// loop runs the worker's Gs, one per resumption from the pool. A G's fn
// runs even when its first wake is ErrStopped: every seam then fails at
// once and fn returns.
func (w *worker) loop(yield func(struct{}) bool) {
	w.yield = yield
	for {
		g := w.g
		g.call(g.body)
		g.exit()
		if !yield(struct{}{}) {
			return
		}
	}
}

// stopWorkers ends the idle workers' coroutines.
func (s *Sched) stopWorkers() {
	for _, w := range s.idle {
		w.stop()
	}
	s.idle = nil
}

// body runs the G's code: fn, or a Parallel child's par(pi).
func (g *G) body() {
	if g.par != nil {
		g.par(g.pi)
		return
	}
	g.fn()
}

func (g *G) call(fn func()) {
	defer func() {
		if r := recover(); r != nil {
			g.s.fail(fmt.Errorf("sim: goroutine %s panicked: %v\n%s", g.Name(), r, debug.Stack()))
		}
	}()
	fn()
}

// exit removes g and, if it was the last child of a Parallel, wakes the
// parent, and returns its worker to the pool; the worker then hands
// control back to the scheduler.
func (g *G) exit() {
	s := g.s
	g.done = true
	g.fn, g.par = nil, nil
	s.idle = append(s.idle, g.w)
	for i, x := range s.live {
		if x == g {
			s.live = append(s.live[:i], s.live[i+1:]...)
			break
		}
	}
	if par := g.parent; par != nil {
		if par.kids--; par.kids == 0 {
			w := par.Waker()
			s.At(s.now, func() { w.Wake(nil, nil) })
		}
	}
}
