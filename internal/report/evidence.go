package report

import (
	"slices"

	"github.com/locksim/locksim/bench"
	"github.com/locksim/locksim/internal/advise"
	"github.com/locksim/locksim/internal/broken"
	"github.com/locksim/locksim/pattern"
)

// FileEvidence is the evidence the advisor reads, written beside the
// report: the measurements as advise.Evidence.
const FileEvidence = "evidence.json"

// Evidence converts the measurements into what the advisor judges from:
// the built-in grid m, the production grid prod (nil for none), and the
// benchmark's hot-key throughput (b nil for none). Cells come in the
// measurements' order, so the same measurements give the same bytes.
func Evidence(m, prod *Measurements, b *Bench, opt Options) *advise.Evidence {
	e := &advise.Evidence{Format: advise.FormatEvidence, Commit: opt.Commit, Command: opt.Command,
		Seeds: m.Seeds, BaselineSeeds: m.BaselineSeeds, Patterns: []advise.Pattern{}, Cells: []advise.Cell{}}
	fifo := FIFO()
	for _, p := range m.Patterns {
		reg, _ := broken.Catalog().Lookup(p.Name) // readers share: the registry's Shared, not SharedHolders (a semaphore counts)
		e.Patterns = append(e.Patterns, advise.Pattern{Name: p.Name, Nodes: p.Nodes, Broken: p.Broken, Tokens: p.Tokens,
			Renews: p.Claims.LossSignal == pattern.LossSignalRenewal, Shared: reg.Shared, FIFO: slices.Contains(fifo, p.Name),
			MaxHolders: p.Claims.MaxHolders, Reentrant: reg.Reentrant, PartOf: partOf[p.Name], Reads: readsPerWrite[p.Name], Claims: p.Claims.Names()})
	}
	for _, g := range []*Measurements{m, prod} {
		if g == nil {
			continue
		}
		if g == prod {
			e.ProductionSeeds = prod.Seeds
		}
		for i := range g.Patterns {
			for _, c := range g.Cells[i] {
				e.Cells = append(e.Cells, evidenceCell(c))
			}
		}
	}
	if b != nil {
		e.HotKey, e.HotKeySource = hotKey(b), b.Target
	}
	realEvidence(e, opt.Agreement)
	return e
}

// realEvidence adds real mode's cells of the measured patterns (a
// library's and a refused scenario's left out: they confirm no pattern).
func realEvidence(e *advise.Evidence, a *Agreement) {
	if a == nil || a.Missing != "" {
		return
	}
	e.RealSource = a.Command
	if e.RealSource == "" {
		e.RealSource = "locksim real"
	}
	for _, c := range a.Cells {
		if c.library() || c.Refused != "" || c.Real.Runs == 0 || !slices.ContainsFunc(e.Patterns, func(p advise.Pattern) bool { return p.Name == c.Pattern }) {
			continue
		}
		rc := advise.RealCell{Pattern: c.Pattern, Scenario: c.Scenario, Runs: c.Real.Runs,
			Agree: c.Agree(), Disagree: c.disagreeing(), Stale: c.Stale, Commit: c.Commit}
		if !rc.Agree && len(rc.Disagree) == 0 {
			rc.Disagree = []string{"any claim"} // a cell made before runs were counted by kind
		}
		e.Real = append(e.Real, rc)
	}
}

// partOf names the patterns the registry measures as one side of
// another, to judge that side alone: not a lock to pick by itself.
var partOf = map[string]string{"rwlock-write": "rwlock"}

// readsPerWrite is the load of the patterns whose readers share: the reads
// per write of each client (pattern.Alternating, pattern.ReadMostly).
var readsPerWrite = map[string]int{"rwlock": 1, "rwlock-read-mostly": pattern.ReadsPerWrite}

func evidenceCell(c *Cell) advise.Cell {
	count := func(runs int, f string) advise.Count { return advise.Count{Runs: runs, First: c.FirstOf[f]} }
	out := advise.Cell{Pattern: c.Pattern, Scenario: c.Scenario, Seeds: c.Seeds, Refused: c.Refused, Unfired: c.Unfired,
		Overlap: count(c.OverlapRuns, FindingOverlap), Lost: count(c.LostRuns, FindingLost),
		Excess: count(c.ExcessRuns, FindingExcess), Stall: count(c.StallRuns, FindingStall), AcqPerSec: c.AcqPerSec(),
		DoubleRuns: c.Overlaps, Acquisitions: c.Acquisitions}
	if c.NoFence != nil {
		n := count(c.NoFence.Runs, FindingLostNoFence)
		out.LostNoFence = &n
	}
	return out
}

// hotKey is each pattern's one-hot-key throughput at its highest client
// count, in the benchmark's order.
func hotKey(b *Bench) []advise.Throughput {
	var out []advise.Throughput
	for _, r := range b.Rows {
		if r.Kind != bench.KindPattern || r.Keys != bench.Hot {
			continue
		}
		t := advise.Throughput{Pattern: r.Subject, Clients: r.Clients, CyclesPerSec: r.CyclesPerSec, Lo: r.CyclesPerSecLo, Hi: r.CyclesPerSecHi}
		if i := slices.IndexFunc(out, func(x advise.Throughput) bool { return x.Pattern == r.Subject }); i < 0 {
			out = append(out, t)
		} else if r.Clients > out[i].Clients {
			out[i] = t
		}
	}
	return out
}
