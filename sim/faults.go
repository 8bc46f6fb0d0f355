package sim

import (
	"fmt"
	"strings"
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/network"
	"github.com/locksim/locksim/sim/node"
	"github.com/locksim/locksim/sim/scenario"
	"github.com/locksim/locksim/sim/vclock"
)

// trigKey is a workload point reached for the n-th time by a client.
type trigKey struct {
	client string
	point  fault.Point
	n      int
}

// scheduleFaults queues the timed faults and files the triggered ones.
func (w *world) scheduleFaults() {
	w.fired = make([]FaultFiring, len(w.sc.Faults))
	w.reached = make([]bool, len(w.sc.Faults))
	for i, f := range w.sc.Faults {
		if f.When.Triggered() {
			k := trigKey{f.When.Client, f.When.Point, f.When.N}
			w.trig[k] = append(w.trig[k], i)
			continue
		}
		w.s.At(int64(f.When.At), func() { w.apply(i) })
	}
}

// fireTriggered schedules the faults fs, whose point a client has just
// reached: now, or their after= offset later. It reports whether any fires
// now, so that the client lets it take effect before it goes on.
func (w *world) fireTriggered(fs []int) bool {
	now := false
	for _, i := range fs {
		d := w.sc.Faults[i].When.After
		w.reached[i] = true
		w.s.At(w.s.Now()+int64(d), func() { w.apply(i) })
		now = now || d == 0
	}
	return now
}

// apply injects the i-th fault of the scenario now.
func (w *world) apply(i int) {
	f := w.sc.Faults[i]
	w.markFired(i)
	w.touch()
	ev := history.Event{At: w.s.Now(), Kind: string(f.Kind), Target: target(f), Detail: scenario.FormatFault(f)}
	if f.For > 0 && f.Kind != fault.Slow {
		ev.End = ev.At + int64(f.For)
	}
	detail := w.inject(f)
	if detail != "" {
		ev.Detail += " (" + detail + ")"
	}
	w.struck(ev, ev.Detail)
}

func target(f fault.Fault) string {
	if f.Target != "" {
		return f.Target
	}
	return strings.Join(f.A, ",") + "|" + strings.Join(f.B, ",")
}

// inject changes the world; it returns a note for the trace, if any.
func (w *world) inject(f fault.Fault) string {
	switch f.Kind {
	case fault.Pause:
		w.client(f.Target).proc.Pause(f.For)
	case fault.Starve:
		w.client(f.Target).proc.Starve(f.For)
	case fault.Slow:
		w.client(f.Target).extra += f.For
	case fault.Jump:
		w.clockOf(f.Target).Jump(f.By)
	case fault.Drift:
		_ = w.clockOf(f.Target).SetDrift(w.s.Now(), f.PPM) // validated with the scenario
	case fault.Crash:
		return w.crash(f)
	case fault.SplitBrain:
		return w.splitBrain(f)
	case fault.Failover:
		lost, err := w.node(f.Target).Failover()
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("the replica is primary; %d unreplicated write(s) lost", lost)
	default:
		w.linkFault(f, true)
		if f.For > 0 {
			w.s.After(int64(f.For), func() {
				w.linkFault(f, false)
				w.tr.printf("FAULT ends: %s", scenario.FormatFault(f))
			})
		}
	}
	return ""
}

func (w *world) crash(f fault.Fault) string {
	n := w.node(f.Target)
	n.Crash()
	if f.For == 0 {
		return "down for good"
	}
	w.s.After(int64(f.For), func() {
		data := "its data kept"
		w.touch()
		switch {
		case f.EverySec:
			data = fmt.Sprintf("its data kept up to the last fsync, %d write(s) after it lost", n.RestartSynced())
		case f.Persist:
			n.Restart(true)
		default:
			n.Restart(false)
			data = "its data lost"
		}
		w.struck(history.Event{At: w.s.Now(), Kind: "restart", Target: f.Target, Detail: data}, f.Target+" restarts, "+data)
	})
	return ""
}

// linkFault starts (on) or ends a partition, slow link or loss on every
// client–endpoint link between f's sides.
func (w *world) linkFault(f fault.Fault, on bool) {
	sign := int64(-1)
	if on {
		sign = 1
	}
	for _, l := range w.links(f) {
		switch f.Kind {
		case fault.Partition:
			l.Partition(on)
		case fault.SlowLink:
			l.Slow(f.Dir, f.By*time.Duration(sign))
		case fault.Loss:
			l.Lossy(f.PPM * sign)
		case fault.BlackHole:
			l.BlackHole(on)
		}
	}
}

func (w *world) links(f fault.Fault) []*network.Link {
	var out []*network.Link
	for _, a := range f.A {
		for _, b := range f.B {
			if fault.IsClient(b) {
				a, b = b, a
			}
			if fault.IsClient(a) && !fault.IsClient(b) {
				out = append(out, w.net.Link(fault.Index(a), w.endpoint(b)))
			}
		}
	}
	return out
}

func (w *world) endpoint(name string) int {
	if name == "db" {
		return w.dbEP
	}
	return fault.Index(name)
}

func (w *world) client(name string) *client { return w.clients[fault.Index(name)] }

func (w *world) node(name string) *node.Node { return w.nodes[fault.Index(name)] }

func (w *world) clockOf(name string) *vclock.Clock {
	if fault.IsNode(name) {
		return w.node(name).Clock()
	}
	return w.client(name).proc.Clock()
}
