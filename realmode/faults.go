package realmode

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
	"github.com/redis/go-redis/v9"
)

// ErrUnsupported marks a scenario with a fault real mode cannot perform.
var ErrUnsupported = errors.New("realmode: fault not supported for real")

// unsupported says why real mode refuses a fault, or "" if it can do it.
func unsupported(f fault.Fault) string {
	if f.IsSchedule() {
		return "a schedule (every=, c*, n*, a drawn value) is drawn by the simulator; real mode performs the faults a scenario lists one by one"
	}
	switch f.Kind {
	case fault.Crash:
		if f.EverySec {
			return "persist=everysec loses the writes after the last fsync only when the host goes down: a killed redis-server under appendfsync everysec has already written them to the page cache, and gets them all back"
		}
		return ""
	case fault.Pause, fault.Slow:
		return ""
	case fault.Partition, fault.SlowLink:
		if slices.Contains(f.A, "db") || slices.Contains(f.B, "db") {
			return "the protected store is in the coordinator, not behind a link the proxy can cut"
		}
		return ""
	case fault.Loss:
		return "TCP retransmits a lost segment: message loss has no real equivalent on a TCP link short of a black-hole (use a partition)"
	case fault.Jump:
		return "" // a node's: key expiries shifted; a client's: its Clock's Now stepped
	case fault.Drift:
		if fault.IsClient(f.Target) && !f.When.Triggered() && f.When.At == 0 {
			return ""
		}
		return "only a client's drift from the start (at=0s) is done for real, through its Clock; redis-server's clock cannot be slowed"
	case fault.Failover:
		return "" // the node's replica, lagging by the replication delay, promoted
	case fault.SplitBrain:
		return "real mode's failover kills the old primary; keeping it up for some clients' proxies is not done (the node's split-brain behaviour is checked against redis-server in sim/node)"
	case fault.BlackHole:
		return "the proxy cuts links whole: a half-open link (requests forwarded, replies dropped) is not done for real yet (a partition black-holes both directions)"
	}
	return "unknown fault kind"
}

// Supported returns an error naming the first fault of sc that real mode
// cannot perform, with the reason; nil when it can run all of them.
func Supported(sc scenario.Scenario) error {
	if sc.Net.LossPPM > 0 {
		return fmt.Errorf("%w: scenario %s: net loss=%dppm: TCP retransmits lost segments; loss has no real equivalent", ErrUnsupported, sc.Name, sc.Net.LossPPM)
	}
	for _, f := range sc.Faults {
		if why := unsupported(f); why != "" {
			return fmt.Errorf("%w: scenario %s: %s (%s): %s", ErrUnsupported, sc.Name, f.Kind, scenario.FormatFault(f), why)
		}
	}
	return nil
}

// supportedFor refuses what a library subject cannot do: take the
// pattern line's options, or a client's clock fault (it does not read
// time through the Clock seam).
func supportedFor(sc scenario.Scenario, cfg Config) error {
	if err := libraryOptions(sc, cfg); err != nil {
		return err
	}
	for _, f := range sc.Faults {
		if cfg.Library && (f.Kind == fault.Drift || (f.Kind == fault.Jump && fault.IsClient(f.Target))) {
			return fmt.Errorf("%w: scenario %s: %s (%s): %s keeps its own time (its runtime's clocks), not the Clock seam a client's clock fault goes through",
				ErrUnsupported, sc.Name, f.Kind, scenario.FormatFault(f), cfg.Pattern.Name)
		}
	}
	return nil
}

// driftOf is the drift a client's clock starts with.
func driftOf(sc scenario.Scenario, client string) int64 {
	var ppm int64
	for _, f := range sc.Faults {
		if f.Kind == fault.Drift && f.Target == client {
			ppm = f.PPM
		}
	}
	return ppm
}

// apply injects the scenario's fault idx now and records its firing (the
// caller holds c.mu).
func (c *coord) apply(idx int) {
	f := c.sc.Faults[idx]
	if !c.fired[idx].Fired {
		c.fired[idx].Fired, c.fired[idx].At = true, c.now()
	}
	ev := history.Event{At: c.now(), Kind: string(f.Kind), Target: f.Target, Detail: scenario.FormatFault(f)}
	if ev.Target == "" {
		ev.Target = strings.Join(f.A, ",") + "|" + strings.Join(f.B, ",")
	}
	if f.For > 0 && f.Kind != fault.Slow {
		ev.End = ev.At + int64(f.For)
	}
	note, err := c.inject(f, len(c.hist.Events))
	if err != nil {
		note = "failed: " + err.Error()
		c.abort(fmt.Errorf("realmode: %s (%s) did not happen: %w", f.Kind, scenario.FormatFault(f), err))
	}
	if note != "" {
		ev.Detail += " (" + note + ")"
	}
	c.event(ev)
}

// inject performs f and says how, or returns why it could not: a fault
// that did not happen ends the run without a verdict (see abort).
func (c *coord) inject(f fault.Fault, event int) (string, error) {
	i := fault.Index(f.Target)
	switch f.Kind {
	case fault.Pause:
		// The pause's event ends when its SIGCONT was sent, not when it
		// was planned to: the stopped time the loss-signal oracle leaves out.
		resumed := func(at time.Time) {
			c.mu.Lock()
			defer c.mu.Unlock()
			if event < len(c.hist.Events) && c.hist.Events[event].Kind == string(fault.Pause) {
				c.hist.Events[event].End = max(c.hist.Events[event].End, at.Sub(c.start).Nanoseconds())
			}
		}
		if err := c.procs[i].pause(f.For, resumed); errors.Is(err, errExited) {
			return "not done: " + err.Error(), nil // a client failure, reported as such
		} else if err != nil {
			return "", err
		}
		return fmt.Sprintf("SIGSTOP process group %d", c.procs[i].cmd.Process.Pid), nil
	case fault.Slow:
		c.state[i].extra += f.For
	case fault.Crash:
		return c.crash(i, f), nil
	case fault.Jump:
		if fault.IsClient(f.Target) {
			c.state[i].jump += f.By
			return "the client's Clock steps at its next reply", nil
		}
		return c.shiftExpiries(i, f.By)
	case fault.Partition, fault.SlowLink:
		return c.linkFault(f), nil
	case fault.Failover:
		return c.failover(i)
	case fault.Drift:
		return fmt.Sprintf("%s's Clock runs at %.2f× from its start", f.Target, 1+float64(f.PPM)/1e6), nil
	}
	return "", nil
}

// linkFault starts a partition or slow link on every client–node link
// between f's sides, and ends it after f.For (0: at the end of the run).
func (c *coord) linkFault(f fault.Fault) string {
	links := c.linksOf(f)
	set := func(on bool) {
		sign := map[bool]time.Duration{true: 1, false: -1}[on]
		for _, l := range links {
			if f.Kind == fault.Partition {
				l.Partition(on)
			} else {
				l.Slow(f.Dir, sign*f.By)
			}
		}
	}
	set(true)
	if f.For > 0 {
		c.timers = append(c.timers, time.AfterFunc(f.For, func() { c.locked(func() { set(false) }) }))
	}
	return fmt.Sprintf("%d proxied link(s)", len(links))
}

// linksOf returns the proxies of the client–node pairs across f's sides.
func (c *coord) linksOf(f fault.Fault) []*Link {
	var out []*Link
	for _, a := range f.A {
		for _, b := range f.B {
			if fault.IsClient(b) {
				a, b = b, a
			}
			if fault.IsClient(a) && fault.IsNode(b) {
				out = append(out, c.links[fault.Index(a)][fault.Index(b)])
			}
		}
	}
	return out
}

// crash SIGKILLs node i and restarts it on the same port after f.For,
// with its data when f.Persist.
func (c *coord) crash(i int, f fault.Fault) string {
	s := c.servers[i]
	pid := s.PID()
	c.down[i] = true
	c.crashes[i]++
	gen := c.crashes[i]
	s.Crash()
	if f.For == 0 {
		return fmt.Sprintf("SIGKILL pid %d; down for good", pid)
	}
	c.restarts.Add(1)
	go func() {
		defer c.restarts.Done()
		select {
		case <-time.After(f.For):
		case <-c.early: // the run ended, failed or was cancelled meanwhile
			return
		}
		if c.isStopping() {
			return
		}
		at := c.now()
		err := s.Restart(f.Persist)
		c.mu.Lock()
		defer c.mu.Unlock()
		// again: the node crashed again meanwhile, killing this restart if
		// it had not answered yet; that crash's own restart brings it back.
		again := c.crashes[i] != gen
		switch {
		case err != nil && (again || c.stopping):
			return // cut short by that crash, or by the end of the run
		case err != nil:
			c.event(history.Event{At: c.now(), Kind: "restart", Target: s.Name(), Detail: "failed: " + err.Error()})
			c.abort(fmt.Errorf("realmode: redis-server %s on %s did not restart after its crash: %w", s.Name(), s.Addr(), err))
			return
		}
		c.upAt[i] = c.now()
		data := map[bool]string{true: "its data kept (AOF, appendfsync always)", false: "its data lost"}[f.Persist]
		c.event(history.Event{At: at, End: c.now(), Kind: "restart", Target: s.Name(), Detail: data})
		if again {
			if s.Alive() { // the later crash came before this process started: it must be down
				s.Crash()
			}
			return
		}
		c.down[i] = false
	}()
	return fmt.Sprintf("SIGKILL pid %d", pid)
}

// shiftScript moves every key's expiry by -ARGV[1] ms, as a step of the
// node's wall clock does to Redis's absolute expiry times; a key whose
// time is up is deleted. It returns the number of keys shifted.
const shiftScript = `
local by = tonumber(ARGV[1])
local n = 0
for _, k in ipairs(redis.call('KEYS', '*')) do
  local t = redis.call('PTTL', k)
  if t > 0 then
    n = n + 1
    if t - by <= 0 then redis.call('DEL', k) else redis.call('PEXPIRE', k, t - by) end
  end
end
return n`

// shiftExpiries emulates a jump of node i's clock by by.
func (c *coord) shiftExpiries(i int, by time.Duration) (string, error) {
	rdb := redis.NewClient(&redis.Options{Addr: c.servers[i].Addr(), DialerRetries: 1, MaxRetries: -1})
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	n, err := rdb.Eval(ctx, shiftScript, nil, by.Milliseconds()).Int()
	if err != nil {
		return "", fmt.Errorf("shift the key expiries of %s: %w", c.servers[i].Name(), err)
	}
	return fmt.Sprintf("%d key expiries shifted by %v", n, -by), nil
}

// liveness summarises progress as the simulator does (the caller holds
// c.mu).
func (c *coord) liveness() sim.Liveness {
	l := sim.Liveness{Stuck: []string{}}
	var waits []time.Duration
	window := min(max(20*c.sc.TTL, time.Second), c.wall)
	for _, st := range c.state {
		l.Acquisitions += st.stats.Acquisitions
		l.Failures += st.stats.Failures
		waits = append(waits, st.waits...)
		if st.stats.Acquisitions == 0 || st.lastAcq < int64(c.wall-window) {
			l.Stuck = append(l.Stuck, st.name)
		}
	}
	l.SetWaits(waits)
	return l
}
