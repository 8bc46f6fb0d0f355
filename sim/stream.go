package sim

import (
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/oracle"
	"github.com/locksim/locksim/sim/sched"
)

// The run's one stream of events. The clients and the store report what
// they do (oracle.Event: wanting, granted or refused, acting, abandoned,
// read, wrote, releasing, released, and the steps no oracle judges:
// extended, misused, slowed; the store's reads and writes), and the
// scheduler each event it ran (ticked); the recorder hands each, once and
// in order, to every oracle of the run, and records it once: the history
// op and the trace line. The faults' events are recorded by struck. The
// oracles see the run only through view.

// recorder is the run's one recording point: its history, its trace and
// its oracles. It knows nothing of the world but the scheduler's clock,
// the clients' names and the nodes' keys.
type recorder struct {
	s       *sched.Sched
	hist    *history.History
	tr      *tracer
	end     time.Duration // the run's duration
	names   []string      // the clients' names, by index
	peeks   []oracle.Node // the nodes, as the oracles see them
	log     *oracle.Log
	safety  *oracle.SafetyOracle
	pr      *oracle.Progress
	loss    *oracle.Loss
	oracles oracle.List // safety, progress, loss: each event goes to each, in order
	grants  int         // holdings granted so far: the next one's number
	touched bool        // a node executed a command or a fault struck since the last event
}

func newRecorder(s *sched.Sched, hist *history.History, tr *tracer, end time.Duration) *recorder {
	return &recorder{s: s, hist: hist, tr: tr, end: end}
}

// judge builds the run's findings log and oracles for pattern p with
// clients clients under a TTL of ttl, in the order each event reaches
// them: safety, progress, loss signal; the nodes must be known (peeks).
func (r *recorder) judge(p pattern.Pattern, clients int, ttl time.Duration) {
	v := view{r}
	r.log = oracle.NewLog(v, r.traceFunc())
	r.safety = oracle.NewSafety(v, r.log, p.Claims)
	r.pr = oracle.NewProgress(v, r.log, p.Claims, ttl, clients)
	r.loss = oracle.NewLoss(v, r.log, p.Claims, ttl, func(l *locks.Lease) []pattern.Mark { return p.Where(Key, l) })
	r.oracles = oracle.List{r.safety, r.pr, r.loss}
	r.s.AfterEvent = r.ticked
}

// traceFunc is the oracles' trace: nil when the trace is off.
func (r *recorder) traceFunc() func(string, ...any) {
	if !r.tr.on() {
		return nil
	}
	return r.tr.printf
}

// emit records e once: to every oracle, and into the history and the
// trace where it is a client's call that returned. A grant gets the next
// holding number, which emit returns; its history op comes before its
// judgement, its trace line after.
func (r *recorder) emit(e oracle.Event) int {
	if e.Kind == oracle.Granted {
		e.Lease = r.grants
		r.grants++
		r.record(r.grantOp(e))
	}
	r.oracles.Observe(e)
	r.print(e)
	return e.Lease
}

// print writes e into the history and the trace, after the oracles.
func (r *recorder) print(e oracle.Event) {
	switch e.Kind {
	case oracle.Granted:
		r.traceGrant(e)
	case oracle.Refused:
		r.refused(e)
	case oracle.Released:
		r.released(e)
	case oracle.Read:
		r.record(r.readOp(e))
	case oracle.Wrote:
		r.wrote(e)
	case oracle.Abandoned:
		r.traceAbandoned(e)
	case oracle.Extended, oracle.Misused, oracle.Slowed:
		r.traceStep(e)
	}
}

// struck records a fault's event once: into the history (where the
// oracles find the pause spans, view.Paused) and the trace, as "FAULT
// line".
func (r *recorder) struck(ev history.Event, line string) {
	r.hist.Events = append(r.hist.Events, ev)
	r.tr.printf("FAULT %s", line)
}

// ticked is the scheduler's AfterEvent hook: it tells the oracles that
// an event ran, and whether a node or a fault touched the servers in it
// or since the last.
func (r *recorder) ticked() {
	r.oracles.Observe(oracle.Event{Kind: oracle.Ticked, Touched: r.touched})
	r.touched = false
}

// touch notes that a node executed a command, or a fault struck.
func (r *recorder) touch() { r.touched = true }

// view is what the oracles read of the run.
type view struct{ r *recorder }

func (v view) Now() int64           { return v.r.s.Now() }
func (v view) Name(c int) string    { return v.r.names[c] }
func (v view) Stopping() bool       { return v.r.s.Stopping() }
func (v view) Nodes() []oracle.Node { return v.r.peeks }

// Paused is how long, within [from, to], client c's process was paused.
func (v view) Paused(c int, from, to int64) int64 {
	return PausedWithin(v.r.hist.Events, v.r.names[c], from, to)
}
