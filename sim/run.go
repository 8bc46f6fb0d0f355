package sim

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/sched"
)

// ErrNilLease is the error of a run in which the pattern's Acquire returned
// a nil lease with a nil error, which no Locker may do.
var ErrNilLease = errors.New("Acquire returned a nil lease and a nil error")

// ErrDefect is the error of a run that found a defect of the simulator
// itself, e.g. a call still in flight after its read timeout with nothing
// left to wake it: the run has no verdict, and its replay is a bug report.
var ErrDefect = sched.ErrDefect

// Run simulates cfg.Pattern under cfg.Scenario with cfg.Seed. An error
// means the run could not be made or did not complete (a bad
// configuration, a panic in the code under test, a goroutine blocked
// outside the seams); violations are in the Result.
func Run(cfg Config) (*Result, error) {
	w, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	defer w.close()
	return w.run()
}

// prepare resolves cfg's scenario, draws its schedules and builds the
// world; the caller closes it.
func prepare(cfg Config) (*world, error) {
	if cfg.Pattern.New == nil {
		return nil, fmt.Errorf("sim: pattern %q has no constructor", cfg.Pattern.Name)
	}
	sc, err := cfg.Scenario.Resolve(cfg.Pattern.Nodes)
	if err != nil {
		return nil, fmt.Errorf("sim: scenario %s: %w", sc.Name, err)
	}
	sc, drawn, err := expandSchedules(sc, cfg.Seed)
	if err != nil {
		return nil, fmt.Errorf("sim: scenario %s: %w", sc.Name, err)
	}
	w, err := newWorld(cfg, sc)
	if err != nil {
		return nil, fmt.Errorf("sim: %s under %s, seed %d: %w", cfg.Pattern.Name, sc.Name, cfg.Seed, err)
	}
	w.drawn = drawn
	return w, nil
}

// run runs the world to the end of its scenario and judges it.
func (w *world) run() (*Result, error) {
	cfg, sc := w.cfg, w.sc
	if w.tr.on() {
		w.tr.printf("run pattern=%s scenario=%s seed=%d nodes=%d clients=%d ttl=%v", cfg.Pattern.Name, sc.Name, cfg.Seed, sc.Nodes, sc.Clients, sc.TTL)
	}
	w.scheduleFaults()
	for _, c := range w.clients {
		c.start()
	}
	runErr := w.s.RunUntil(int64(sc.Duration))
	shutErr := w.s.Shutdown()
	if shutErr == runErr {
		shutErr = nil // the same failure, which Shutdown returns again
	}
	if errors.Is(runErr, sched.ErrEventLimit) {
		runErr = fmt.Errorf("%w: its work cap of %d simulator events, by t=%s of %v (MaxEvents; shorten the duration or use fewer clients)",
			ErrCap, w.s.MaxEvents, fmtT(w.s.Now()), sc.Duration)
	}
	if err := errors.Join(runErr, shutErr); err != nil {
		_ = w.tr.flush()
		return nil, fmt.Errorf("sim: %s under %s, seed %d: %w", cfg.Pattern.Name, sc.Name, cfg.Seed, err)
	}
	res := w.result()
	w.tr.printf("END %s", res.Summary())
	if err := w.tr.flush(); err != nil {
		return nil, fmt.Errorf("sim: write trace: %w", err)
	}
	return res, nil
}

func (w *world) result() *Result {
	sc := w.sc
	r := &Result{Pattern: w.cfg.Pattern.Name, Scenario: sc.Name, Seed: w.cfg.Seed, Nodes: sc.Nodes,
		Claims: w.cfg.Pattern.Claims.Names(), Violated: []string{}, History: w.hist}
	r.Safety = safetyOf(w.safety, w.db)
	r.Liveness = w.liveness()
	w.oracles.End(int64(sc.Duration))
	r.LossSignal = w.loss.Result()
	r.Liveness.Stalls, r.Liveness.LongestStall = w.pr.Stalls()
	r.Violations = w.log.Violations()
	for _, c := range w.clients {
		r.Clients = append(r.Clients, c.stats)
	}
	r.Violated = violated(w.cfg.Pattern.Claims, r.Safety, r.Liveness)
	if w.cfg.Pattern.Claims.LossSignal > 0 && r.LossSignal.Late > 0 {
		r.Violated = append(r.Violated, "loss-signal")
	}
	r.Stats = w.stats()
	r.Faults = w.faultFirings()
	return r
}

// violated names the claims the run broke.
func violated(c pattern.Claims, s Safety, l Liveness) []string {
	broken := map[pattern.Claim]bool{
		pattern.ClaimMutex:      s.Overlaps > 0,
		pattern.ClaimSafeStore:  s.LostUpdates > 0,
		pattern.ClaimFencing:    s.FenceViolations > 0,
		pattern.ClaimMaxHolders: s.Excess > 0,
		pattern.ClaimProgress:   l.Stalled(),
	}
	out := []string{}
	for _, k := range c.List() {
		if broken[k] {
			out = append(out, string(k))
		}
	}
	return out
}

func (w *world) liveness() Liveness {
	var l Liveness
	var waits []time.Duration
	window := w.stuckWindow()
	for _, c := range w.clients {
		l.Acquisitions += c.stats.Acquisitions
		l.Failures += c.stats.Failures
		waits = append(waits, c.waits...)
		if c.stats.Acquisitions == 0 || c.lastAcq < int64(w.sc.Duration-window) {
			l.Stuck = append(l.Stuck, c.name)
		}
	}
	if l.Stuck == nil {
		l.Stuck = []string{}
	}
	l.SetWaits(waits)
	return l
}

// SetWaits fills the wait statistics (mean, p50, p99, max) from the
// acquisitions' waits, which it sorts; none leaves them zero.
func (l *Liveness) SetWaits(waits []time.Duration) {
	if len(waits) == 0 {
		return
	}
	slices.Sort(waits)
	var sum time.Duration
	for _, d := range waits {
		sum += d
	}
	l.WaitMean = sum / time.Duration(len(waits))
	l.WaitP50 = waits[len(waits)/2]
	l.WaitP99 = waits[min(len(waits)*99/100, len(waits)-1)]
	l.WaitMax = waits[len(waits)-1]
}

func (w *world) stats() Stats {
	st := w.s.Stats()
	ns := w.net.Stats()
	s := Stats{SimTime: w.sc.Duration, Events: st.Events, Switches: st.Switches,
		Messages: ns.Messages, Dropped: ns.Dropped, Checksum: fmt.Sprintf("%016x", w.s.Checksum()),
		Violations: w.log.Count(), Backends: []string{}}
	for _, n := range w.nodes {
		s.Commands += n.Stats().Commands
		s.Backends = append(s.Backends, n.Stats().Backend)
	}
	return s
}
