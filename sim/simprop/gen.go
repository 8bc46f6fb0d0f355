package simprop

import (
	"fmt"
	"strings"
	"time"

	"pgregory.net/rapid"

	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// Case is one generated run: a scenario (the property's base with drawn
// faults) and the simulator's seed.
type Case struct {
	Scenario scenario.Scenario
	Seed     uint64
}

// GoString is what rapid logs for a drawn case: the seed and one line per
// fault, in the scenario format.
func (c Case) GoString() string {
	lines := []string{fmt.Sprintf("seed=%d faults=%d", c.Seed, len(c.Scenario.Faults))}
	for _, f := range c.Scenario.Faults {
		lines = append(lines, "  "+scenario.FormatFault(f))
	}
	return strings.Join(lines, "\n")
}

// Cases draws cases over base: up to e.MaxFaults faults inside e, and a
// seed. Shrinking removes faults, moves them earlier and makes them
// smaller, so a failure shrinks to a short schedule.
func Cases(e Envelope, base scenario.Scenario) *rapid.Generator[Case] {
	faults := Faults(e, base)
	return rapid.Custom(func(t *rapid.T) Case {
		sc := base
		sc.Faults = faults.Draw(t, "faults")
		return Case{Scenario: sc, Seed: rapid.Uint64Range(0, 1<<32).Draw(t, "seed")}
	})
}

// Faults draws fault schedules inside e for runs shaped like base (its
// clients, nodes and duration).
func Faults(e Envelope, base scenario.Scenario) *rapid.Generator[[]fault.Fault] {
	g := gens{e: e, s: base}
	kinds := g.kinds()
	if len(kinds) == 0 || e.MaxFaults == 0 {
		return rapid.Just([]fault.Fault(nil))
	}
	list := rapid.SliceOfN(rapid.OneOf(kinds...), 0, e.MaxFaults)
	return rapid.Custom(func(t *rapid.T) []fault.Fault {
		fs := list.Draw(t, "faults")
		return g.spreadCrashes(fs)
	})
}

// gens builds the generator of each kind of fault an envelope allows.
type gens struct {
	e Envelope
	s scenario.Scenario
}

type faultGen = *rapid.Generator[fault.Fault]

func (g gens) kinds() []faultGen {
	e := g.e
	var out []faultGen
	add := func(ok bool, gen func() faultGen) {
		if ok {
			out = append(out, gen())
		}
	}
	add(e.Pause.any(), g.pause)
	add(e.Pause.any(), g.pause) // twice as likely: pauses are the fault locks meet most
	add(e.Slow.any() && len(e.Slow.Points) > 0, g.slow)
	add(e.Client.Jump > 0, func() faultGen { return g.jump(g.clients(), e.Client) })
	add(e.Client.Drift > 0, func() faultGen { return g.drift(g.clients(), e.Client) })
	add(e.Node.Jump > 0 && g.s.Nodes > 0, func() faultGen { return g.jump(g.nodes(), e.Node) })
	add(e.Node.Drift > 0 && g.s.Nodes > 0, func() faultGen { return g.drift(g.nodes(), e.Node) })
	add(e.Links.Partition, func() faultGen { return g.link(fault.Partition) })
	add(e.Links.Loss, func() faultGen { return g.link(fault.Loss) })
	add(e.Links.Slow > 0, func() faultGen { return g.link(fault.SlowLink) })
	add(e.Crash.any() && g.s.Nodes > 0, g.crash)
	add(e.Failover && g.s.Nodes > 0, g.failover)
	return out
}

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(prefix, i+1)
	}
	return out
}

func (g gens) clients() []string { return names("c", g.s.Clients) }
func (g gens) nodes() []string   { return names("n", g.s.Nodes) }

// millis draws a duration in whole milliseconds in [lo, hi].
func millis(t *rapid.T, label string, lo, hi time.Duration) time.Duration {
	return time.Duration(rapid.Int64Range(int64(lo/time.Millisecond), int64(hi/time.Millisecond)).Draw(t, label)) * time.Millisecond
}

// at draws a true time within the run, to the microsecond: the windows
// that matter can be shorter than a millisecond (a quorum's requests in
// flight), and small values, which rapid favours, fall in the first
// acquisitions.
func (g gens) at(t *rapid.T) fault.When {
	us := rapid.Int64Range(0, int64(g.s.Duration/time.Microsecond)-1).Draw(t, "at")
	return fault.When{At: time.Duration(us) * time.Microsecond}
}

// on draws the n-th time a client reaches one of points.
func (g gens) on(t *rapid.T, client string, points []fault.Point) fault.When {
	p := rapid.SampledFrom(points).Draw(t, "point")
	return fault.When{Client: client, Point: p, N: rapid.IntRange(1, 6).Draw(t, "n")}
}

// when draws a trigger for a fault with no workload restriction: a true
// time, or any client's workload point.
func (g gens) when(t *rapid.T) fault.When {
	if rapid.Bool().Draw(t, "triggered") {
		return g.on(t, rapid.SampledFrom(g.clients()).Draw(t, "client"), fault.WorkloadPoints)
	}
	return g.at(t)
}

func (g gens) pause() faultGen {
	s := g.e.Pause
	return rapid.Custom(func(t *rapid.T) fault.Fault {
		c := rapid.SampledFrom(g.clients()).Draw(t, "client")
		w := fault.When{}
		if len(s.Points) > 0 && (!s.Timed || rapid.Bool().Draw(t, "triggered")) {
			w = g.on(t, c, s.Points)
		} else {
			w = g.at(t)
		}
		return fault.Fault{Kind: fault.Pause, Target: c, When: w, For: millis(t, "for", time.Millisecond, s.Max)}
	})
}

func (g gens) slow() faultGen {
	s := g.e.Slow
	return rapid.Custom(func(t *rapid.T) fault.Fault {
		c := rapid.SampledFrom(g.clients()).Draw(t, "client")
		return fault.Fault{Kind: fault.Slow, Target: c, When: g.on(t, c, s.Points), For: millis(t, "for", time.Millisecond, s.Max)}
	})
}

func (g gens) jump(targets []string, c Clocks) faultGen {
	return rapid.Custom(func(t *rapid.T) fault.Fault {
		by := millis(t, "by", time.Millisecond, c.Jump)
		if !c.Forward || rapid.Bool().Draw(t, "backward") {
			by = -by
		}
		return fault.Fault{Kind: fault.Jump, Target: rapid.SampledFrom(targets).Draw(t, "target"), When: g.when(t), By: by}
	})
}

func (g gens) drift(targets []string, c Clocks) faultGen {
	return rapid.Custom(func(t *rapid.T) fault.Fault {
		return fault.Fault{Kind: fault.Drift, Target: rapid.SampledFrom(targets).Draw(t, "target"), When: g.when(t),
			PPM: rapid.Int64Range(-c.Drift, c.Drift).Draw(t, "ppm")}
	})
}

// link draws a partition, loss or slow link between a non-empty set of
// clients and a non-empty set of nodes (and the store, where allowed).
func (g gens) link(kind fault.Kind) faultGen {
	l := g.e.Links
	far := g.nodes()
	if l.DB && (kind != fault.SlowLink || l.DBSlow) {
		far = append(far, "db")
	}
	return rapid.Custom(func(t *rapid.T) fault.Fault {
		f := fault.Fault{Kind: kind, A: subset(t, "a", g.clients()), B: subset(t, "b", far), When: g.when(t)}
		f.For = millis(t, "for", 0, g.s.Duration) // 0: until the run ends
		switch kind {
		case fault.Loss:
			f.PPM = rapid.Int64Range(1, 100).Draw(t, "percent") * 10_000
		case fault.SlowLink:
			f.By = millis(t, "by", time.Millisecond, l.Slow)
			f.Dir = rapid.SampledFrom([]fault.Dir{fault.Both, fault.Request, fault.Reply}).Draw(t, "dir")
		}
		return f
	})
}

// subset draws a non-empty subset of names, in their order.
func subset(t *rapid.T, label string, names []string) []string {
	mask := rapid.IntRange(1, 1<<len(names)-1).Draw(t, label)
	var out []string
	for i, n := range names {
		if mask&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

func (g gens) crash() faultGen {
	c := g.e.Crash
	return rapid.Custom(func(t *rapid.T) fault.Fault {
		f := fault.Fault{Kind: fault.Crash, Target: rapid.SampledFrom(g.nodes()).Draw(t, "target"), When: g.when(t)}
		f.Persist = c.Persist && (c.Volatile == 0 || rapid.Bool().Draw(t, "persist"))
		switch {
		case f.Persist:
			f.For = millis(t, "for", 0, g.s.Duration) // 0: down for good
		case rapid.Bool().Draw(t, "for-good"):
		default:
			f.For = millis(t, "for", c.Volatile, max(c.Volatile, g.s.Duration))
		}
		return f
	})
}

func (g gens) failover() faultGen {
	return rapid.Custom(func(t *rapid.T) fault.Fault {
		return fault.Fault{Kind: fault.Failover, Target: rapid.SampledFrom(g.nodes()).Draw(t, "target"), When: g.when(t)}
	})
}

// spreadCrashes keeps the crashes inside the envelope: each node crashes
// at most once, and no more distinct nodes crash than it allows. A crash
// of a node that already crashed is moved to the first node that has not,
// if one may still crash, and dropped otherwise.
func (g gens) spreadCrashes(fs []fault.Fault) []fault.Fault {
	limit := g.e.Crash.maxCrashed(g.s.Nodes)
	var hit []string
	out := fs[:0]
	for _, f := range fs {
		if f.Kind == fault.Crash && indexOf(hit, f.Target) >= 0 {
			if len(hit) >= limit {
				continue
			}
			f.Target = g.fresh(hit)
		}
		if f.Kind == fault.Crash {
			if len(hit) >= limit {
				continue
			}
			hit = append(hit, f.Target)
		}
		out = append(out, f)
	}
	return out
}

// fresh is the first node not in hit (the caller knows there is one).
func (g gens) fresh(hit []string) string {
	for _, n := range g.nodes() {
		if indexOf(hit, n) < 0 {
			return n
		}
	}
	return ""
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}
