package fault

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Dist is how a schedule draws one of a fault's quantities (the gap
// between occurrences, a duration, a step, a rate) around the value the
// fault holds for it (its mean, or its half-width for Spread).
type Dist string

// Distributions.
const (
	Fixed   Dist = ""        // the value itself, every time
	Exp     Dist = "exp"     // exponential with the value as mean (a Poisson process for a gap)
	Uniform Dist = "uniform" // uniform on [0, 2·value]: the value is the mean
	Spread  Dist = "spread"  // uniform on [-value, +value], written uniform(±D)
)

// Dists lists the distributions with a one-line summary, for `locksim list`.
var Dists = []struct {
	Dist    Dist
	Text    string
	Summary string
}{
	{Exp, "exp(D)", "exponential with mean D (every=exp(D): a Poisson process)"},
	{Uniform, "uniform(D)", "uniform on [0, 2D], mean D"},
	{Spread, "uniform(±D)", "uniform on [-D, +D] (signed quantities: a jump's by=, a drift's rate=)"},
}

// Schedule makes a fault a source of occurrences drawn over the whole run
// instead of one event: every target its wildcard names (c* every client,
// n* every node), each with its own random stream, gets the fault at At
// (at=, default 0) or, with Every, again and again, the gap from the end
// of one occurrence to the start of the next drawn from EveryDist, until
// the run ends. For, By and PPM are drawn per occurrence from their Dist.
type Schedule struct {
	Every     time.Duration
	EveryDist Dist
	ForDist   Dist
	ByDist    Dist
	RateDist  Dist
}

// Wildcards: every client, every node.
const (
	AllClients = "c*"
	AllNodes   = "n*"
)

// IsSchedule reports whether f is a schedule: it repeats (every=), names
// every client or node (c*, n*) or draws a quantity from a distribution.
func (f Fault) IsSchedule() bool {
	s := f.Sched
	return s.Every != 0 || s.EveryDist != Fixed || s.ForDist != Fixed || s.ByDist != Fixed ||
		s.RateDist != Fixed || f.Target == AllClients || f.Target == AllNodes
}

// Targets is the targets f names in a run of nodes nodes and clients
// clients: its wildcard expanded, in index order, or its one target.
func (f Fault) Targets(nodes, clients int) []string {
	switch f.Target {
	case AllClients:
		return names('c', clients)
	case AllNodes:
		return names('n', nodes)
	}
	return []string{f.Target}
}

func names(prefix byte, n int) []string {
	out := make([]string, n)
	for i := range n {
		out[i] = fmt.Sprintf("%c%d", prefix, i+1)
	}
	return out
}

// validateSchedule checks a schedule's own fields; Validate then checks
// a representative occurrence (the first target, the values as given).
func (f Fault) validateSchedule(nodes, clients int) error {
	s := f.Sched
	if f.When.Triggered() {
		return fmt.Errorf("field on: a schedule (every=, c*, n* or a drawn value) is timed by at= and every=, not on=")
	}
	if s.Every < 0 || (s.EveryDist != Fixed && s.Every == 0) {
		return fmt.Errorf("field every: %v, want a positive gap (leave every= out for one occurrence)", s.Every)
	}
	if s.Every > 0 && f.For == 0 && s.ForDist == Fixed && slices.Contains([]Kind{Crash, SplitBrain, Partition, SlowLink, Loss}, f.Kind) {
		return fmt.Errorf("field for: a repeated %s needs a positive for= (0 lasts until the run ends)", f.Kind)
	}
	if err := f.validateDists(); err != nil {
		return err
	}
	if (f.Target == AllClients && clients == 0) || (f.Target == AllNodes && nodes == 0) {
		return fmt.Errorf("field target: %s names no %s in this run", f.Target, map[string]string{AllClients: "client", AllNodes: "node"}[f.Target])
	}
	if f.Target == AllNodes && !slices.Contains([]Kind{Jump, Drift, Crash, Failover, SplitBrain}, f.Kind) {
		return fmt.Errorf("field target: %s: %s takes a client", f.Target, f.Kind)
	}
	return nil
}

// validateDists checks each drawn field's distribution against the
// quantity: spreads only for signed ones, no spread or exp for a rate
// that must stay inside a range.
func (f Fault) validateDists() error {
	s := f.Sched
	for _, d := range []struct {
		field  string
		dist   Dist
		signed bool
	}{{"every", s.EveryDist, false}, {"for", s.ForDist, false}, {"by", s.ByDist, f.Kind == Jump}, {"rate", s.RateDist, f.Kind == Drift}} {
		switch {
		case d.dist != Fixed && d.dist != Exp && d.dist != Uniform && d.dist != Spread:
			return fmt.Errorf("field %s: unknown distribution %q (known: %s)", d.field, d.dist, DistNames())
		case d.dist == Spread && !d.signed:
			return fmt.Errorf("field %s: uniform(±…) is for signed values (a jump's by=, a drift's rate=); want exp(D) or uniform(D)", d.field)
		}
	}
	if f.Kind == Loss && s.RateDist != Fixed {
		return fmt.Errorf("field rate: a loss rate is not drawn; give it as a value (e.g. rate=50%%)")
	}
	if f.Kind == Drift && s.RateDist == Exp {
		return fmt.Errorf("field rate: exp(…) would draw rates without bound; want uniform(±R)")
	}
	if f.Kind == Drift {
		lo, hi := f.PPM, f.PPM
		switch s.RateDist {
		case Uniform:
			lo, hi = 0, 2*f.PPM
		case Spread:
			lo, hi = -f.PPM, f.PPM
		}
		return f.needs(driftRange(lo), driftRange(hi))
	}
	return nil
}

// DistNames lists the distributions as written, for error messages.
func DistNames() string {
	var out []string
	for _, d := range Dists {
		out = append(out, d.Text)
	}
	return strings.Join(out, ", ")
}

// representative is the occurrence Validate checks for a schedule: the
// first target, the fault's values as given.
func (f Fault) representative() Fault {
	g := f
	g.Sched = Schedule{}
	switch f.Target {
	case AllClients:
		g.Target = "c1"
	case AllNodes:
		g.Target = "n1"
	}
	if f.Sched.ByDist == Spread && g.By < 0 {
		g.By = -g.By
	}
	if f.Sched.RateDist == Spread && g.PPM < 0 {
		g.PPM = -g.PPM
	}
	return g
}
