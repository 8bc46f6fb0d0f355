package realmode

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/linearizability"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// Config is one real run.
type Config struct {
	// Pattern is what runs: its name is looked up again inside each client
	// process, its claims judge the run, its node count sizes it.
	Pattern  pattern.Pattern
	Scenario scenario.Scenario // its node count may be 0: the pattern's
	Seed     uint64            // the workload's jitter and the lock tokens
	// Client is the command line of a client process: a program whose
	// main calls ClientMain (the locksim binary's hidden real-client
	// command, or a binary built with library adapters). ClientEnv is added
	// to its environment.
	Client    []string
	ClientEnv []string
	// Library marks a subject that keeps its own time (a library
	// adapter), not through the Clock seam: a clock drift cannot reach it.
	Library bool
	// Server is the redis-server executable (default: redis-server on PATH).
	Server string
	// HangAfter is how long a client that is not paused may stay silent
	// before it is judged hung (default: 2 × acquire-timeout + 2 × the
	// longest step + 5s).
	HangAfter time.Duration
}

// Result is the verdict of one real run: the simulator's result (same
// oracles, same fields), the clients that failed, and porcupine's verdict
// on the history.
type Result struct {
	sim.Result
	// Failures names each client process that crashed, panicked, hung or
	// could not build its lock; a run with failures has no safety verdict
	// worth having.
	Failures []Failure `json:"failures"`
	// Linearizable is porcupine's verdict on the history (counter and
	// register models): Ok, Illegal or Unknown.
	Linearizable linearizability.Verdict `json:"linearizable"`
	// Wall is the run's length in real time, set-up excluded.
	Wall time.Duration `json:"wall_ns"`
	// TTL is the scenario's.
	TTL time.Duration `json:"ttl_ns"`
	// Stops is each client's largest unplanned stop (see ClientStop);
	// Descheduled marks a run in which one exceeded TTL/StopFraction: the
	// machine paused a client, and its verdict may say so.
	Stops       []ClientStop `json:"unplanned_stops"`
	Descheduled bool         `json:"descheduled"`
	// NotJudged names each claim of the pattern the run could not judge,
	// with the reason: it is neither broken nor held.
	NotJudged []string `json:"not_judged"`
	// Messages counts the messages the clients sent, by kind (what the
	// conformance check reads).
	Messages map[string]int `json:"-"`
}

// Failure is one client process that did not run to the end.
type Failure struct {
	Client string `json:"client"`
	What   string `json:"what"`
}

// ErrClientFailed wraps nothing: it marks Results whose clients failed
// (see Result.Err).
var ErrClientFailed = errors.New("realmode: a client process failed")

// Err is ErrClientFailed naming the failures, or nil.
func (r *Result) Err() error {
	if len(r.Failures) == 0 {
		return nil
	}
	msg := ""
	for i, f := range r.Failures {
		if i > 0 {
			msg += "; "
		}
		msg += f.Client + " " + f.What
	}
	return fmt.Errorf("%w: %s", ErrClientFailed, msg)
}

// Summary is a one-line verdict.
func (r *Result) Summary() string {
	if len(r.Failures) > 0 {
		return fmt.Sprintf("%s under %s (real), seed %d: CLIENT FAILED — %v", r.Pattern, r.Scenario, r.Seed, r.Err())
	}
	return "real: " + r.Result.Summary() + fmt.Sprintf(", porcupine %s", r.Linearizable)
}

// ShutdownBound is how long Run takes at most to return once ctx is done
// (SIGINT or SIGTERM in the CLI) or the run has ended, whatever its
// clients do: a client that forked a child holding its output, one that
// ignores signals, one stopped by a pause. It is documented, not waited
// for: the shutdown itself takes about a second.
const ShutdownBound = 5 * time.Second

// Run starts the servers and client processes, runs the scenario for its
// duration in real time with its faults done for real, stops every
// process, and judges the run. An error means the run could not be made
// or has no verdict (a refused scenario or lock setting, no redis-server,
// a server that died on its own, a crashed node that did not restart, a
// fault that did not happen, ctx done); violations and client failures
// are in the Result. Every client runs in a process group of its own
// with a parent-death signal; once ctx is done Run returns within
// ShutdownBound.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	sc, err := cfg.Scenario.Resolve(cfg.Pattern.Nodes)
	var oe *locks.OptionError
	if errors.As(err, &oe) { // refused by the lock's own rules (scenario.Scenario.Validate)
		return nil, fmt.Errorf("realmode: scenario %s: %w: %w", sc.Name, ErrRefused, err)
	}
	if err != nil {
		return nil, fmt.Errorf("realmode: scenario %s: %w", sc.Name, err)
	}
	if err := Supported(sc); err != nil {
		return nil, err
	}
	if err := supportedFor(sc, cfg); err != nil {
		return nil, err
	}
	if err := CheckBuild(cfg.Pattern, sc); err != nil {
		return nil, fmt.Errorf("realmode: scenario %s: %w", sc.Name, err)
	}
	c := newCoord(cfg, sc)
	defer c.shutdown()
	if err := c.startServers(ctx); err != nil {
		return nil, interrupted(ctx, err)
	}
	if err := c.startClients(ctx); err != nil {
		return nil, interrupted(ctx, err)
	}
	c.begin()
	if err := c.wait(ctx); err != nil {
		return nil, err
	}
	c.end()
	return c.result()
}

// interrupted is err, wrapping ctx's error when ctx is done: a start-up
// cut short by an interrupt (a server's wait for PING ended by it) is the
// interrupt, not an environment that failed.
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%w (%w)", err, ctx.Err())
	}
	return err
}

// wait runs the scenario's duration, ending early on a client failure, a
// server that died on its own, or ctx, and later while a fault still needs
// time (overtime).
func (c *coord) wait(ctx context.Context) error {
	timer := time.NewTimer(c.sc.Duration)
	defer timer.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-timer.C:
			if d := c.overtime(); d > 0 {
				timer.Reset(d)
				continue
			}
			return nil
		case <-c.early:
			return c.aborted()
		case <-ctx.Done():
			return fmt.Errorf("realmode: %s under %s: %w", c.cfg.Pattern.Name, c.sc.Name, ctx.Err())
		case <-tick.C:
			if err := c.watch(); err != nil {
				return err
			}
		}
	}
}

// shutdown stops every process started, clients first: each client's
// process group is SIGKILLed and its output given outputGrace to close,
// a restart in progress gives up its wait for PING, every redis-server is
// SIGKILLed. It takes about outputGrace whatever the clients did (see
// ShutdownBound).
func (c *coord) shutdown() {
	c.mu.Lock()
	c.stopping = true
	timers := c.timers // no timer is added once stopping
	c.mu.Unlock()
	c.once.Do(func() { close(c.early) }) // frees a client waiting for a start that will not come
	for _, t := range timers {
		t.Stop()
	}
	var clients sync.WaitGroup
	for _, p := range c.procs {
		if p != nil {
			clients.Add(1)
			go func() { defer clients.Done(); p.kill() }()
		}
	}
	clients.Wait()
	for _, row := range c.links {
		for _, l := range row {
			l.Close()
		}
	}
	c.restarts.Wait()
	c.mu.Lock()
	for _, r := range c.grantClients {
		_ = r.Close()
	}
	c.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range append(c.stopReplicas(), c.servers...) {
		wg.Add(1)
		go func() { defer wg.Done(); s.Stop() }()
	}
	wg.Wait()
	c.serving.Wait()
}

func (c *coord) result() (*Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h := c.hist
	r := &Result{Failures: append([]Failure{}, c.failures...), Wall: c.wall, TTL: c.sc.TTL, Messages: maps.Clone(c.seen)}
	r.Result = sim.Result{Pattern: c.cfg.Pattern.Name, Scenario: c.sc.Name, Seed: c.cfg.Seed, Nodes: c.sc.Nodes,
		Claims: c.cfg.Pattern.Claims.Names(), Safety: c.judge.Safety(), History: h}
	r.Violations, r.Stats.Violations = c.judge.Violations()
	r.Stats.SimTime = c.wall
	// Progress and loss-signal, judged as the simulator judges them.
	c.pr.finish(c, int64(c.wall))
	r.Liveness = c.liveness()
	r.Liveness.Stalls, r.Liveness.LongestStall = c.pr.stalls, time.Duration(c.pr.longest)
	r.Violated = c.judge.ViolatedWith(r.Liveness)
	r.LossSignal = c.lossResult()
	if c.cfg.Pattern.Claims.LossSignal > 0 && r.LossSignal.Late > 0 {
		r.Violated = append(r.Violated, sim.ClaimLossSignal)
	}
	r.NotJudged = append([]string{}, c.notJudged(r.LossSignal)...)
	r.Stops, r.Descheduled = c.stopsResult()
	r.Violations = append(append(r.Violations, c.pr.found...), c.lateSignals...)
	r.Stats.Violations += len(c.pr.found) + len(c.lateSignals)
	slices.SortStableFunc(r.Violations, func(a, b sim.Violation) int { return cmp.Compare(a.At, b.At) })
	r.Faults = c.firings()
	for i, st := range c.state {
		st.stats.Writes = c.judge.Writes(i)
		r.Clients = append(r.Clients, st.stats)
	}
	rep, err := linearizability.Check(h, linearizability.Options{Models: linearizability.DefaultModels, Timeout: time.Minute})
	if err != nil {
		return nil, fmt.Errorf("realmode: check the history: %w", err)
	}
	r.Linearizable = rep.Verdict
	return r, nil
}

// record adds an op to the history.
func (c *coord) record(o history.Op) { c.hist.Ops = append(c.hist.Ops, o) }

// event adds a fault or other annotation to the history.
func (c *coord) event(e history.Event) { c.hist.Events = append(c.hist.Events, e) }

// trigKey is a workload point reached for the n-th time by a client.
type trigKey struct {
	client string
	point  fault.Point
	n      int
}
