package realmode

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// coord is one run's coordinator: true time, the store and oracles, the
// history, and every process.
type coord struct {
	cfg Config
	sc  scenario.Scenario

	mu    sync.Mutex // guards everything below it, and the judge
	start time.Time
	wall  time.Duration
	judge *sim.Judge
	hist  *history.History
	state []*clientState
	down  []bool // a node down on purpose (crashed, not yet restarted)
	// crashes counts each node's crashes so far: a restart cut short by a
	// later crash of its node is that crash's doing, not a failed restart.
	crashes []int
	upAt    []int64 // per node: the true time its last restart answered (0: none)
	loss    *lossOracle
	pr      *progress
	grants  int // leases granted
	// lateSignals are the loss-signal oracle's violations.
	lateSignals []sim.Violation
	stalls      []stall // the clients' heartbeat gaps
	// grantClients are the loss-signal oracle's connections for its look
	// at a grant (guarded by mu; its poller has its own).
	grantClients map[string]*redis.Client
	trig         map[trigKey][]int // faults (their index in the scenario) waiting for a point
	fired        []sim.FaultFiring // per fault of the scenario: whether and when it fired
	stopping     bool
	failures     []Failure
	envErr       error          // the environment failed under the run (a restart that did not happen): no verdict
	seen         map[string]int // messages received, by kind

	servers []*Server
	// replicas[i] is node i's replica until it is promoted (nil after),
	// replLinks[i] the proxy that makes it lag; retired are primaries a
	// failover replaced.
	replicas  []*Server
	replLinks []*Link
	retired   []*Server
	links     [][]*Link // links[client][node]: the proxy every client–node call goes through
	procs     []*proc
	timers    []*time.Timer
	started   chan struct{} // closed when the run begins
	ended     chan struct{} // closed when the run ends (end)
	early     chan struct{} // closed to end the run early (a client failed)
	once      sync.Once
	serving   sync.WaitGroup
	restarts  sync.WaitGroup
}

// clientState is what the coordinator keeps per client.
type clientState struct {
	name     string
	pending  *history.Op // an invoked lock call
	readCall int64
	points   map[fault.Point]int
	extra    time.Duration // slowness for the client's next step
	jump     time.Duration // a step of its wall clock, for its next reply
	stats    sim.ClientResult
	waits    []time.Duration
	lastAcq  int64
	relID    int   // the lease of the Release in flight
	leases   []int // the leases granted to the client
}

func newCoord(cfg Config, sc scenario.Scenario) *coord {
	c := &coord{cfg: cfg, sc: sc, trig: map[trigKey][]int{}, down: make([]bool, sc.Nodes), crashes: make([]int, sc.Nodes),
		fired: make([]sim.FaultFiring, len(sc.Faults)), started: make(chan struct{}), early: make(chan struct{}),
		ended: make(chan struct{}), grantClients: map[string]*redis.Client{}, upAt: make([]int64, sc.Nodes), loss: newLossOracle(cfg.Pattern.Claims, nodesTTL{sc.Nodes, sc.TTL})}
	names := make([]string, sc.Clients)
	for i := range names {
		names[i] = fmt.Sprint("c", i+1)
		c.state = append(c.state, &clientState{name: names[i], points: map[fault.Point]int{}, stats: sim.ClientResult{Name: names[i]}})
	}
	c.pr = newProgress(c)
	c.judge = sim.NewJudge(cfg.Pattern.Claims, names, c.now)
	c.hist = &history.History{Pattern: cfg.Pattern.Name, Scenario: sc.Name, Seed: cfg.Seed, Source: "redis", Ops: []history.Op{}}
	return c
}

// now is true time: the coordinator's monotonic clock since the start.
func (c *coord) now() int64 { return time.Since(c.start).Nanoseconds() }

func (c *coord) startServers(ctx context.Context) error {
	persist := None
	for _, f := range c.sc.Faults {
		if f.Kind == fault.Crash && f.Persist {
			persist = AOFAlways
		}
	}
	for i := range c.sc.Nodes {
		s, err := startServer(ctx, ServerConfig{Name: fmt.Sprint("n", i+1), Binary: c.cfg.Server, Persist: persist})
		if err != nil {
			return err
		}
		s.EndWaitsWith(c.early, nil) // a restart's wait ends with the run
		c.servers = append(c.servers, s)
	}
	return c.startReplicas(ctx)
}

// startLinks puts a proxy on every client–node link.
func (c *coord) startLinks() error {
	for range c.state {
		var row []*Link
		for _, s := range c.servers {
			l, err := NewLink(s.Addr())
			if err != nil {
				c.links = append(c.links, row)
				return err
			}
			row = append(row, l)
		}
		c.links = append(c.links, row)
	}
	return nil
}

func (c *coord) startClients(ctx context.Context) error {
	if err := c.startLinks(); err != nil {
		return err
	}
	ready := make(chan int, len(c.state))
	c.procs = make([]*proc, len(c.state)) // allocated once: the serving goroutines index it
	for i, st := range c.state {
		addrs := make([]string, len(c.links[i]))
		for n, l := range c.links[i] {
			addrs[n] = l.Addr()
		}
		setup := Setup{Protocol: ProtocolVersion, Name: st.name, Index: i, Pattern: c.cfg.Pattern.Name, Addrs: addrs, Key: sim.Key,
			TTL: c.sc.TTL, Seed: c.cfg.Seed, Workload: c.sc.Workload, Options: c.sc.Pattern, Timeout: c.sc.Net.Timeout,
			DriftPPM: driftOf(c.sc, st.name)}
		p, err := startProc(st.name, c.cfg.Client, c.cfg.ClientEnv, setup)
		if err != nil {
			return err
		}
		c.procs[i] = p
		c.serving.Add(1)
		go c.serve(i, ready)
	}
	return c.awaitReady(ctx, ready)
}

// awaitReady waits until every client has built its lock.
func (c *coord) awaitReady(ctx context.Context, ready <-chan int) error {
	limit := time.NewTimer(30 * time.Second)
	defer limit.Stop()
	for n := 0; n < len(c.state); {
		select {
		case <-ready:
			n++
		case <-c.early:
			return fmt.Errorf("realmode: %s under %s: %w", c.cfg.Pattern.Name, c.sc.Name, c.failErr())
		case <-limit.C:
			return fmt.Errorf("realmode: %s under %s: %d of %d clients not ready after 30s", c.cfg.Pattern.Name, c.sc.Name, len(c.state)-n, len(c.state))
		case <-ctx.Done():
			return fmt.Errorf("realmode: %s under %s: %w", c.cfg.Pattern.Name, c.sc.Name, ctx.Err())
		}
	}
	return nil
}

func (c *coord) failErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := Result{Failures: c.failures}
	return r.Err()
}

// begin starts true time, injects the faults due at its start, schedules
// the timed ones and files the triggered ones, and lets the clients go.
func (c *coord) begin() {
	c.mu.Lock()
	c.start = time.Now()
	for i, f := range c.sc.Faults {
		switch {
		case f.When.Triggered():
			k := trigKey{f.When.Client, f.When.Point, f.When.N}
			c.trig[k] = append(c.trig[k], i)
		case f.When.At == 0:
			c.apply(i)
		default:
			c.applyAfter(i, f.When.At)
		}
	}
	c.serving.Add(1)
	go c.lossLooks()
	c.mu.Unlock()
	close(c.started)
}

// end stops the run: every later message is answered with stop, and ops
// still in flight are recorded with an unknown outcome.
func (c *coord) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopping = true
	c.wall = time.Since(c.start)
	close(c.ended)
	for _, st := range c.state {
		if st.pending != nil {
			st.pending.Return = history.Unknown
			c.record(*st.pending)
			st.pending = nil
		}
	}
	slices.SortStableFunc(c.hist.Ops, func(a, b history.Op) int { return cmp.Compare(a.Call, b.Call) })
}

func (c *coord) locked(fn func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.stopping {
		fn()
	}
}

// fail records a client failure and ends the run early.
func (c *coord) fail(i int, what string) {
	c.mu.Lock()
	if !c.stopping {
		c.failures = append(c.failures, Failure{Client: c.state[i].name, What: what})
	}
	c.mu.Unlock()
	c.once.Do(func() { close(c.early) })
}

// abort ends the run early with err, the first environment failure: the
// run has no verdict (the caller holds c.mu).
func (c *coord) abort(err error) {
	if c.envErr == nil && !c.stopping && len(c.failures) == 0 {
		c.envErr = err
	}
	c.once.Do(func() { close(c.early) })
}

// aborted is the environment failure that ended the run, or nil.
func (c *coord) aborted() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.envErr
}

// watch checks for hung clients and for servers that died on their own.
func (c *coord) watch() error {
	hang := c.hangAfter()
	for i, p := range c.procs {
		if d := p.silentFor(); d > hang && !p.exited() {
			c.fail(i, fmt.Sprintf("hung: no message for %v (not paused); killed", d.Round(time.Millisecond)))
			p.kill()
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, s := range c.servers {
		if !c.down[i] && !s.Alive() {
			return fmt.Errorf("realmode: redis-server %s on %s died on its own (log: %s)", s.Name(), s.Addr(), s.Log())
		}
	}
	return nil
}

func (c *coord) hangAfter() time.Duration {
	if c.cfg.HangAfter > 0 {
		return c.cfg.HangAfter
	}
	wl := c.sc.Workload
	step := max(wl.Work+wl.Jitter, wl.Think, wl.Prep)
	for _, f := range c.sc.Faults {
		if f.Kind == fault.Slow {
			step = max(step, f.For+wl.Work+wl.Jitter)
		}
	}
	return 2*wl.AcquireTimeout + 2*step + 5*time.Second
}

// errProtocol marks a client that broke the message protocol.
var errProtocol = errors.New("broke the protocol")
