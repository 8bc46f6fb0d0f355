package realmode

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/fault"
)

// The loss-signal oracle of real mode judges what the simulator's does
// (sim/losslatency.go), with the same definition and bound
// (sim.LossSignalBound) and the same pauses left out
// (sim.PausedWithin). The true moment a holding is lost is the first at
// which fewer than a quorum of the nodes hold its token where the
// pattern says it lives (Pattern.Where): a key's expiry on the node's
// own clock (PEXPIRETIME, read every lossPoll from each redis-server
// directly, not through the clients' proxies), a restart the coordinator
// performed that came back without it (the instant it answered again), or
// a delete, a takeover or a failover seen at the next look (the look's
// instant: up to lossPoll after the fact, so a latency is never
// overstated). As in the simulator, a crashed node keeps what it held
// while it is down (its keys still expire on time): whether it lost them
// shows when it restarts. The moment
// the holder is told is when its lease's Done closed (or its Err turned
// non-nil, for a lease with no Done), as the client's watcher reports it,
// or when a Release it began after the loss returned an error. Only
// losses before the holder began its Release count.

// nodeUnknown is a look's reply for a node that is down or did not
// answer in time (a loaded machine): what it holds is taken to be what it
// held at the last look, its keys expiring on time.
const nodeUnknown = -3

// lossPoll is how often the coordinator looks at every open holding (a
// variable only so that a test can leave the looks to grants and
// releases).
var lossPoll = 5 * time.Millisecond

// markScript returns the earliest PEXPIRETIME among the marks (KEYS[i]
// naming ARGV[i]; an empty ARGV[i]: the key exists), -1 when none
// expires, -2 when a mark is missing.
const markScript = `
local at = -1
for i, k in ipairs(KEYS) do
  local tok = ARGV[i]
  local t = redis.call('TYPE', k)['ok']
  local held = false
  if t == 'none' then held = false
  elseif tok == '' then held = true
  elseif t == 'string' then held = redis.call('GET', k) == tok
  elseif t == 'hash' then held = redis.call('HEXISTS', k, tok) == 1
  elseif t == 'set' then held = redis.call('SISMEMBER', k, tok) == 1
  elseif t == 'zset' then held = redis.call('ZSCORE', k, tok) ~= false
  elseif t == 'list' then held = redis.call('LPOS', k, tok) ~= false
  end
  if not held then return -2 end
  local e = redis.call('PEXPIRETIME', k)
  if e > 0 and (at < 0 or e < at) then at = e end
end
return at`

// realHolding is one holding the oracle watches.
type realHolding struct {
	id, client int
	marks      []pattern.Mark
	looked     bool    // a first look found it on a quorum (else Untracked)
	lastLook   int64   // the true time of the last look
	expires    []int64 // per node: true time it expires there (0: none, or not held)
	held       []bool  // per node, at the last look
	lost       bool
	lostAt     int64
	doneAt     int64 // when the holder's view lost it (-1: not yet)
	releaseAt  int64 // when its Release began (-1: not yet)
	blind      bool
	over       bool
}

// lossOracle is real mode's loss-signal oracle (guarded by coord.mu).
type lossOracle struct {
	quorum int
	bound  int64
	open   []*realHolding
	byID   map[int]*realHolding
	told   []toldLoss // judged at the end of the run
	lat    []int64
	res    sim.LossSignal
}

func newLossOracle(c pattern.Claims, sc nodesTTL) *lossOracle {
	o := &lossOracle{quorum: sc.nodes/2 + 1, byID: map[int]*realHolding{}}
	o.bound = int64(sim.LossSignalBound(c, sc.ttl))
	o.res.Bound = time.Duration(o.bound)
	return o
}

type nodesTTL struct {
	nodes int
	ttl   time.Duration
}

// grantLoss starts watching the holding id client i was just granted
// (the caller holds c.mu).
func (c *coord) grantLoss(i, id int, m Msg) {
	key := m.Key
	if key == "" {
		key = sim.Key
	}
	l := &locks.Lease{Key: key, Token: m.Token, Shared: m.Mode == "read"}
	h := &realHolding{id: id, client: i, marks: c.cfg.Pattern.Where(sim.Key, l), doneAt: -1, releaseAt: -1,
		expires: make([]int64, c.sc.Nodes), held: make([]bool, c.sc.Nodes)}
	c.loss.open = append(c.loss.open, h)
	c.loss.byID[id] = h
	// The first look is made now, before the grant's reply lets the client
	// on to a fault at its acquired point: a holding not on a quorum at its
	// grant is not measured (Untracked), as in the simulator.
	c.judgeLook(h, c.lookMarks(h, c.addrs(), c.grantClients), c.now())
}

// lossNotice is the client's watcher telling that lease id is lost on
// its view at wall time at (the caller holds c.mu).
func (c *coord) lossNotice(id int, at int64) {
	h := c.loss.byID[id]
	if h == nil || h.over {
		return
	}
	h.doneAt = max(c.trueOf(at), 0)
	if h.lost {
		c.signalLoss(h, max(h.doneAt, h.lostAt), "its lease's Done closed")
	}
}

// lossAct notes that the holder of id relied on its lease now.
func (c *coord) lossAct(id int) {
	if h := c.loss.byID[id]; h != nil && h.lost && h.doneAt < 0 && !h.blind {
		h.blind = true
		c.loss.res.Blind++
	}
}

// lossReleasing notes that the holder of id began its Release now.
func (c *coord) lossReleasing(id int) {
	h := c.loss.byID[id]
	if h == nil || h.over {
		return
	}
	if !h.lost {
		// A last look before the Release is sent (the client waits for
		// this message's reply): a loss since the last poll, such as a
		// node that came back empty a moment ago, is not missed because
		// the holder released before the next poll.
		c.judgeLook(h, c.lookMarks(h, c.addrs(), c.grantClients), c.now())
	}
	h.releaseAt = c.now()
	if !h.lost && !h.over {
		c.closeHolding(h)
	}
}

// lossReleased judges a loss the holder had not learnt of by its
// Release's outcome.
func (c *coord) lossReleased(id int, ok bool, errText string) {
	h := c.loss.byID[id]
	if h == nil || h.over || !h.lost {
		return
	}
	if !ok {
		c.signalLoss(h, c.now(), "Release returned "+errText)
		return
	}
	c.finishLoss(h, c.now(), "never: Release returned nil")
}

func (c *coord) signalLoss(h *realHolding, at int64, how string) {
	c.loss.res.Signalled++
	c.finishLoss(h, at, how)
}

// finishLoss closes h, told at true time at. Its latency is judged at
// the end of the run (judgeLosses), when every stop of the holder's
// process is known: a heartbeat's gap is reported when the heartbeat
// runs again, which may be after the loss was told.
func (c *coord) finishLoss(h *realHolding, at int64, how string) {
	c.loss.told = append(c.loss.told, toldLoss{client: h.client, lostAt: h.lostAt, at: at, how: how})
	c.closeHolding(h)
}

// toldLoss is one loss and when (and how) its holder was told.
type toldLoss struct {
	client     int
	lostAt, at int64
	how        string
}

// judgeLosses measures every told loss, its holder's stopped time
// aside, against the bound (the caller holds c.mu).
func (c *coord) judgeLosses() {
	for _, t := range c.loss.told {
		d := max(t.at-t.lostAt-c.stoppedWithin(t.client, t.lostAt, t.at), 0)
		c.loss.lat = append(c.loss.lat, d)
		if c.loss.bound == 0 || d <= c.loss.bound {
			continue
		}
		c.loss.res.Late++
		name := c.state[t.client].name
		c.lateSignals = append(c.lateSignals, sim.Violation{Kind: "late-signal", At: t.at, Clients: []string{name},
			Detail: fmt.Sprintf("%s lost the lock on the server at t=%.6fs and learnt of it %v later, its pauses aside (%s), past its bound %v",
				name, float64(t.lostAt)/1e9, time.Duration(d).Round(time.Microsecond), t.how, time.Duration(c.loss.bound))})
	}
	c.loss.told = nil
}

// stoppedWithin is how long, within [from, to], client i's process did
// not run: the union of the scenario's pauses of it (SIGSTOP to SIGCONT)
// and the gaps its own heartbeat saw (which include the time the machine
// took to run it again after a SIGCONT, and any time the machine did not
// run it at all). A stopped process can neither be told nor act: as in
// the simulator, its stopped time is not charged to the lock. The gaps
// are known to the heartbeat's tick (2ms): that is the oracle's
// resolution, and the stops are reported per run (Result.Stops).
func (c *coord) stoppedWithin(i int, from, to int64) int64 {
	name := c.state[i].name
	evs := slices.Clone(c.hist.Events)
	for _, s := range c.stalls {
		if s.client == i {
			evs = append(evs, history.Event{Kind: string(fault.Pause), Target: name, At: s.from, End: s.to})
		}
	}
	return sim.PausedWithin(evs, name, from, to)
}

func (c *coord) closeHolding(h *realHolding) {
	h.over = true
	delete(c.loss.byID, h.id)
	c.loss.open = slices.DeleteFunc(c.loss.open, func(o *realHolding) bool { return o == h })
}

// trueOf converts a wall-clock instant (Unix ns) to true time.
func (c *coord) trueOf(wall int64) int64 { return wall - c.start.UnixNano() }

// lossLooks looks at every open holding every lossPoll until the run
// ends.
func (c *coord) lossLooks() {
	defer c.serving.Done()
	clients := map[string]*redis.Client{}
	defer func() {
		for _, r := range clients {
			_ = r.Close()
		}
	}()
	t := time.NewTicker(lossPoll)
	defer t.Stop()
	for {
		select {
		case <-c.early:
			return
		case <-c.ended:
			return
		case <-t.C:
		}
		c.lookOnce(clients)
	}
}

// lookOnce reads every open holding on every node (without the lock),
// then judges what it read.
func (c *coord) lookOnce(clients map[string]*redis.Client) {
	c.mu.Lock()
	if c.stopping {
		c.mu.Unlock()
		return
	}
	hs := slices.Clone(c.loss.open)
	addrs := c.addrs()
	c.mu.Unlock()
	if len(hs) == 0 {
		return
	}
	at := c.now()
	reads := make([][]int64, len(hs))
	for k, h := range hs {
		reads[k] = c.lookMarks(h, addrs, clients)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopping {
		return
	}
	for k, h := range hs {
		c.judgeLook(h, reads[k], at)
	}
}

// addrs are the nodes' addresses, empty for a node down (the caller
// holds c.mu).
func (c *coord) addrs() []string {
	addrs := make([]string, len(c.servers))
	for i, s := range c.servers {
		if !c.down[i] {
			addrs[i] = s.Addr()
		}
	}
	return addrs
}

// lookMarks runs markScript for h on every node of addrs, over clients
// (one per address, made as needed): per node, its reply, -2 where h is
// not held or the node did not answer.
func (c *coord) lookMarks(h *realHolding, addrs []string, clients map[string]*redis.Client) []int64 {
	keys, argv := make([]string, len(h.marks)), make([]any, len(h.marks))
	for j, m := range h.marks {
		keys[j], argv[j] = m.Key, m.Token
	}
	out := make([]int64, len(addrs))
	for n, a := range addrs {
		out[n] = nodeUnknown
		if a == "" {
			continue
		}
		r := clients[a]
		if r == nil {
			r = redis.NewClient(&redis.Options{Addr: a, DialerRetries: 1, MaxRetries: -1, ContextTimeoutEnabled: true})
			clients[a] = r
		}
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		v, err := r.Eval(ctx, markScript, keys, argv...).Int64()
		cancel()
		if err == nil {
			out[n] = v
		}
	}
	return out
}

// judgeLook applies one look at h, made at true time at.
func (c *coord) judgeLook(h *realHolding, read []int64, at int64) {
	if h.over || h.lost {
		return
	}
	prev := slices.Clone(h.expires)
	wasHeld := slices.Clone(h.held)
	since := h.lastLook
	h.lastLook = at
	n := 0
	for i, v := range read {
		if v == nodeUnknown { // as it was at the last look, but for an expiry since
			if h.held[i] = h.held[i] && (h.expires[i] == 0 || h.expires[i] > at); h.held[i] {
				n++
			}
			continue
		}
		h.held[i], h.expires[i] = v != -2, 0
		if v == -2 {
			continue
		}
		n++
		if v > 0 {
			h.expires[i] = c.trueOf((v + 1) * int64(time.Millisecond)) // Redis: expired once now > expireAt
		}
	}
	if !h.looked {
		h.looked = true
		if n < c.loss.quorum {
			c.loss.res.Untracked++
			c.closeHolding(h)
		}
		return
	}
	if n >= c.loss.quorum {
		return
	}
	lostAt := c.lossInstant(prev, wasHeld, h.held, since, at)
	if h.releaseAt >= 0 && lostAt >= h.releaseAt {
		c.closeHolding(h) // its own release may have taken it
		return
	}
	h.lost, h.lostAt = true, lostAt
	c.loss.res.Losses++
	if h.doneAt >= 0 {
		c.signalLoss(h, max(h.doneAt, h.lostAt), "its lease's Done closed")
	}
}

// lossInstant is when a holding that lost its quorum lost it: the latest
// of the expiries passed, and of the restarts, of the nodes it left
// since the last look; else the look's instant.
func (c *coord) lossInstant(prev []int64, wasHeld, held []bool, since, at int64) int64 {
	lost := int64(-1)
	for i := range held {
		if !wasHeld[i] || held[i] {
			continue
		}
		switch {
		case prev[i] > 0 && prev[i] <= at:
			lost = max(lost, prev[i])
		case c.upAt[i] > since && c.upAt[i] <= at:
			lost = max(lost, c.upAt[i])
		default:
			lost = max(lost, at)
		}
	}
	if lost < 0 {
		return at
	}
	return lost
}

// lossResult closes the losses still unsignalled at the end of the run
// and returns the measurements (the caller holds c.mu).
func (c *coord) lossResult() sim.LossSignal {
	end := int64(c.wall)
	for _, h := range slices.Clone(c.loss.open) {
		switch {
		case h.lost && h.releaseAt >= 0:
			c.finishLoss(h, end, "not by the end of the run: its Release had not returned")
		case h.lost:
			c.finishLoss(h, end, "not by the end of the run")
		}
	}
	c.judgeLosses()
	r := c.loss.res
	if len(c.loss.lat) > 0 {
		lat := slices.Clone(c.loss.lat)
		slices.Sort(lat)
		r.Max = time.Duration(lat[len(lat)-1])
		r.P99 = time.Duration(lat[min(len(lat)*99/100, len(lat)-1)])
	}
	return r
}

// stall is one gap of a client's heartbeat, in true time.
type stall struct {
	client   int
	from, to int64
}
