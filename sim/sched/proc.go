package sched

import (
	"context"
	"fmt"
	"time"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/sim/vclock"
)

// Proc is one simulated process. It is the clock.Clock of the code that
// runs in it: every method that waits or starts work must be called from
// one of the Proc's own Gs.
type Proc struct {
	s     *Sched
	name  string
	clk   *vclock.Clock
	ngo   int
	pause int // pauses in force (they may overlap)
	// starve counts starvations in force: the Gs started by Go (and their
	// Parallel children) get no CPU, the others run on.
	starve int

	deferred []deferredWake
	stamps   map[int64]int64 // wall reading handed out → monotonic reading
}

type deferredWake struct {
	w Waker
	m wakeMsg
}

var _ clock.Clock = (*Proc)(nil)

// NewProc adds a process named name whose clocks follow clk.
func (s *Sched) NewProc(name string, clk *vclock.Clock) *Proc {
	p := &Proc{s: s, name: name, clk: clk}
	s.procs = append(s.procs, p)
	return p
}

// Name is the process's name.
func (p *Proc) Name() string { return p.name }

// Clock is the process's clock model (the simulator changes drift and
// jumps through it).
func (p *Proc) Clock() *vclock.Clock { return p.clk }

// Sched is the scheduler the process runs on.
func (p *Proc) Sched() *Sched { return p.s }

// TrackWallJumps makes Since exact across wall-clock jumps: every reading
// Now hands out is remembered with its monotonic reading, as Go's
// time.Time carries one. Turn it on before the process runs if its wall
// clock may jump; without jumps Since is exact anyway.
func (p *Proc) TrackWallJumps() {
	if p.stamps == nil {
		p.stamps = map[int64]int64{}
	}
}

// Spawn starts fn as a new G of this process, at the current time.
func (p *Proc) Spawn(name string, fn func()) *G {
	return p.s.spawn(p, p.name+"/"+name, nil, fn)
}

// Pause stops the process for d from now: none of its Gs is resumed until
// then; wake-ups that arrive meanwhile run at the end, in order.
func (p *Proc) Pause(d time.Duration) {
	p.pause++
	p.s.After(int64(d), func() {
		p.pause--
		p.redeliver()
	})
}

// Starve stops the process's background work for d from now: the Gs
// started by Go, and the Parallel children of those, are not resumed until
// then (a CPU-starved process whose watchdog never gets scheduled); the
// others run on. Their wake-ups that arrive meanwhile run at the end, in
// order.
func (p *Proc) Starve(d time.Duration) {
	p.starve++
	p.s.After(int64(d), func() {
		p.starve--
		p.redeliver()
	})
}

// holds reports whether a wake of g must wait: the process is paused, or
// starved and g is background work.
func (p *Proc) holds(g *G) bool {
	return p.pause > 0 || (p.starve > 0 && g.Root().bg)
}

// redeliver queues the deferred wake-ups again at the end of a pause or a
// starvation; those that must still wait are deferred again, in order.
func (p *Proc) redeliver() {
	if p.pause > 0 || len(p.deferred) == 0 {
		return
	}
	ws := p.deferred
	p.deferred = nil
	for _, dw := range ws {
		p.s.At(p.s.now, func() { dw.w.Wake(dw.m.val, dw.m.err) })
	}
}

// Paused reports whether a pause is in force.
func (p *Proc) Paused() bool { return p.pause > 0 }

// running returns the current G, which must belong to p.
func (p *Proc) running() *G {
	g := p.s.cur
	if g == nil {
		panic(fmt.Sprintf("sched: %s: a clock seam was called outside a simulated goroutine", p.name))
	}
	if g.proc != p {
		panic(fmt.Sprintf("sched: %s: a clock seam was called from %s, a goroutine of another process", p.name, g.Name()))
	}
	return g
}

// Now is the process's wall clock.
func (p *Proc) Now() time.Time {
	w := p.clk.Wall(p.s.now)
	if p.stamps != nil {
		m := p.clk.Mono(p.s.now)
		for {
			old, ok := p.stamps[w]
			if !ok || old == m {
				break
			}
			w++ // a reading already handed out for another instant: keep readings unique
		}
		p.stamps[w] = m
	}
	return vclock.Epoch.Add(time.Duration(w))
}

// Since is the time elapsed since t on the process's monotonic clock (as
// time.Since is for a t that carries a monotonic reading).
func (p *Proc) Since(t time.Time) time.Duration {
	w := int64(t.Sub(vclock.Epoch))
	if m, ok := p.stamps[w]; ok {
		return time.Duration(p.clk.Mono(p.s.now) - m)
	}
	return time.Duration(p.clk.Wall(p.s.now) - w)
}

// Sleep waits for d on the process's clock, or until ctx is done.
func (p *Proc) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	g := p.running()
	if d <= 0 {
		return nil
	}
	w := g.Waker()
	watch(ctx, w)
	p.s.At(p.s.now+p.clk.TrueFor(d), func() { w.Wake(nil, nil) })
	_, err := g.Park()
	return err
}

// Go starts fn as a new G of this process.
func (p *Proc) Go(fn func()) {
	p.running()
	p.ngo++
	g := p.s.spawn(p, "", nil, fn)
	g.kind, g.n = "go", p.ngo
	g.bg = true
}

// Parallel runs fn(0..n-1) in n new Gs and parks the caller until all have
// returned. n == 1 runs inline, as clock.Real does.
func (p *Proc) Parallel(n int, fn func(i int)) {
	if n <= 0 {
		return
	}
	g := p.running()
	if n == 1 || p.s.stopping {
		for i := range n {
			fn(i)
		}
		return
	}
	g.kids = n
	for i := range n {
		p.ngo++
		k := p.s.spawn(p, "", g, nil)
		k.par, k.pi = fn, i // no closure per child
		k.kind, k.n = "par", p.ngo
	}
	g.parked = true
	g.w.yield(struct{}{})
}
