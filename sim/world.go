package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/network"
	"github.com/locksim/locksim/sim/node"
	"github.com/locksim/locksim/sim/oracle"
	"github.com/locksim/locksim/sim/scenario"
	"github.com/locksim/locksim/sim/sched"
	"github.com/locksim/locksim/sim/vclock"
)

// world is one run's simulated system.
type world struct {
	*recorder // the history, the trace and the oracles: emit, record

	cfg     Config
	sc      scenario.Scenario
	s       *sched.Sched
	net     *network.Net
	nodes   []*node.Node
	db      *store
	dbEP    int
	clients []*client
	trig    map[trigKey][]int // indices into sc.Faults
	fired   []FaultFiring
	reached []bool     // per fault: its trigger point was reached (it may fire later)
	drawn   *expansion // where each fault comes from, when the scenario has schedules
	splits  []*split   // per node: its split brain in progress, or nil
}

// stream derives an independent PCG for one concern (and index) of a run,
// so that adding a fault or a client does not reshuffle the others.
func stream(seed uint64, concern string, i int) *rand.Rand {
	h := seed ^ 0x9e3779b97f4a7c15
	for _, c := range []byte(concern) {
		h = splitmix(h ^ uint64(c))
	}
	h = splitmix(h ^ uint64(i))
	return rand.New(rand.NewPCG(h, splitmix(h)))
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func newWorld(cfg Config, sc scenario.Scenario) (*world, error) {
	w := &world{cfg: cfg, sc: sc, s: sched.New(), trig: map[trigKey][]int{}}
	w.s.MaxEvents, w.s.Watch = maxEvents, w.heapWatch
	w.s.StallAfter = cfg.StallAfter
	hist := &history.History{Pattern: cfg.Pattern.Name, Scenario: sc.Name, Seed: cfg.Seed, Source: "sim", Ops: make([]history.Op, 0, 1024)}
	w.recorder = newRecorder(w.s, hist, newTracer(cfg.Trace, w.s.Now), sc.Duration)
	w.net = network.New(w.s, stream(cfg.Seed, "net", 0).Uint64(), sc.Net.Latency)
	w.net.Timeout = sc.Net.Timeout
	if w.tr.on() {
		w.net.Trace = w.tr.line
	}
	w.net.Observe = w.observeCall
	w.net.Sent, w.net.Received = w.onSent, w.onReceived
	if err := w.addNodes(); err != nil {
		return nil, err
	}
	w.splits = make([]*split, len(w.nodes))
	w.judge(cfg.Pattern, sc.Clients, sc.TTL)
	w.db = newStore(func(e oracle.Event) { w.emit(e) }, func(c int) { w.clients[c].stats.Writes++ })
	w.dbEP = w.net.AddEndpoint(w.db.endpoint())
	for i := range sc.Clients {
		if err := w.addClient(i); err != nil {
			w.close()
			return nil, err
		}
	}
	for c := range sc.Clients {
		for e := range len(w.nodes) + 1 {
			w.net.Link(c, e).LossPPM = sc.Net.LossPPM
		}
	}
	return w, nil
}

func (w *world) addNodes() error {
	for i := range w.sc.Nodes {
		nd, err := node.New(node.Config{Name: fmt.Sprint("n", i+1), Clock: vclock.New(0),
			Backend: w.cfg.Backend, ReplicaDelay: w.sc.Replicas, Replicas: w.sc.ReplicaCount,
			ReplicaLag: replicaLag(w.sc, stream(w.cfg.Seed, "replicas", i))}, w.s)
		if err != nil {
			w.close()
			return err
		}
		if w.fsyncs(nd.Name()) {
			nd.SetFsync(int64(fault.FsyncEvery))
		}
		w.nodes = append(w.nodes, nd)
		w.peeks = append(w.peeks, nd)
		w.net.AddEndpoint(w.watched(w.nodeEndpoint(len(w.nodes)-1, nd)))
	}
	return nil
}

// fsyncs reports whether the scenario crashes node name under
// persist=everysec: only then does the node keep an fsync point.
func (w *world) fsyncs(name string) bool {
	for _, f := range w.sc.Faults {
		if f.Kind == fault.Crash && f.EverySec && f.Target == name {
			return true
		}
	}
	return false
}

func (w *world) addClient(i int) error {
	name := fmt.Sprint("c", i+1)
	p := w.s.NewProc(name, vclock.New(0))
	if w.jumps(name) {
		p.TrackWallJumps()
	}
	ci := w.net.AddClient(p)
	conns := make([]locks.Redis, len(w.nodes))
	for e := range w.nodes {
		conns[e] = w.net.NewRedisClient(ci, e)
	}
	opts := w.lockOptions(p, locks.NewSeededRand(stream(w.cfg.Seed, "tokens", i).Uint64(), name))
	l, err := w.newLocker(conns, opts)
	if err != nil {
		return fmt.Errorf("pattern %s with %d nodes: %w", w.cfg.Pattern.Name, len(w.nodes), err)
	}
	w.clients = append(w.clients, newClient(w, i, name, p, l))
	w.names = append(w.names, name)
	return nil
}

// lockOptions are a client's locks.Options: its clock and token source
// on the scenario's (scenario.Scenario.LockOptions: the TTL, the first
// retry backoff and the pattern directive's options), which real mode
// builds its client processes' locks with too.
func (w *world) lockOptions(clk clock.Clock, r locks.Rand) locks.Options {
	o := w.sc.LockOptions()
	o.Clock, o.Rand = clk, r
	return o
}

// newLocker calls the pattern's constructor, turning a panic or a nil
// Locker into an error: the constructor may be anyone's code.
func (w *world) newLocker(conns []locks.Redis, opts locks.Options) (l locks.Locker, err error) {
	defer func() {
		if r := recover(); r != nil {
			l, err = nil, fmt.Errorf("New panicked: %v", r)
		}
	}()
	l, err = w.cfg.Pattern.New(conns, Key, opts)
	if err == nil && l == nil {
		err = errors.New("New returned a nil Locker and a nil error")
	}
	return l, err
}

// jumps reports whether a fault steps name's wall clock.
func (w *world) jumps(name string) bool {
	for _, f := range w.sc.Faults {
		if f.Kind == fault.Jump && f.Target == name {
			return true
		}
	}
	return false
}

// watched notes every command ep executes (touch), which the loss-signal
// oracle learns with the event that ran it.
func (w *world) watched(ep *network.Endpoint) *network.Endpoint {
	handle := ep.Handle
	ep.Handle = func(c int, req network.Message) network.Message {
		w.touch()
		return handle(c, req)
	}
	return ep
}

func (w *world) close() {
	w.closeSplits()
	for _, n := range w.nodes {
		n.Close()
	}
}
