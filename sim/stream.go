package sim

import (
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/oracle"
)

// The run's one stream of events. The clients and the store report what
// they do (oracle.Event: wanting, granted, acting, abandoned, read, wrote,
// releasing, released), and the scheduler each event it ran (ticked);
// emit hands each, once and in order, to every oracle of the run. The
// oracles see the run only through view.

// newOracles builds the run's findings log and oracles, in the order each
// event reaches them: safety, progress, loss signal.
func (w *world) newOracles() {
	v := view{w}
	w.log = oracle.NewLog(v, w.traceFunc())
	claims := w.cfg.Pattern.Claims
	w.safety = oracle.NewSafety(v, w.log, claims)
	w.pr = oracle.NewProgress(v, w.log, claims, w.sc.TTL, w.sc.Clients)
	w.loss = oracle.NewLoss(v, w.log, claims, w.sc.TTL, func(l *locks.Lease) []pattern.Mark { return w.cfg.Pattern.Where(Key, l) })
	w.oracles = oracle.List{w.safety, w.pr, w.loss}
	w.s.AfterEvent = w.ticked
}

// emit records e once: into the history and the trace where it is a
// client's call that returned, and to every oracle. A grant gets the next
// holding number, which emit returns.
func (w *world) emit(e oracle.Event) int {
	switch e.Kind {
	case oracle.Granted:
		e.Lease = w.grants
		w.grants++
		w.record(w.grantOp(e))
		w.oracles.Observe(e)
		w.traceGrant(e)
	case oracle.Refused:
		w.oracles.Observe(e)
		w.refused(e)
	case oracle.Released:
		w.oracles.Observe(e)
		w.released(e)
	case oracle.Read:
		w.oracles.Observe(e)
		w.record(w.readOp(e))
	case oracle.Wrote:
		w.oracles.Observe(e)
		w.wrote(e)
	case oracle.Abandoned:
		w.oracles.Observe(e)
		w.traceAbandoned(e)
	default:
		w.oracles.Observe(e)
	}
	return e.Lease
}

// ticked is the scheduler's AfterEvent hook: it tells the oracles that
// an event ran, and whether a node or a fault touched the servers in it
// or since the last.
func (w *world) ticked() {
	w.oracles.Observe(oracle.Event{Kind: oracle.Ticked, Touched: w.touched})
	w.touched = false
}

// touch notes that a node executed a command, or a fault struck.
func (w *world) touch() { w.touched = true }

// view is what the oracles read of the world.
type view struct{ w *world }

func (v view) Now() int64           { return v.w.s.Now() }
func (v view) Name(c int) string    { return v.w.clients[c].name }
func (v view) Stopping() bool       { return v.w.s.Stopping() }
func (v view) Nodes() []oracle.Node { return v.w.peeks }

// Paused is how long, within [from, to], client c's process was paused.
func (v view) Paused(c int, from, to int64) int64 {
	return PausedWithin(v.w.hist.Events, v.w.clients[c].name, from, to)
}
