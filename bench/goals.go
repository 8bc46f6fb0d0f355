package bench

import (
	"fmt"
	"slices"
	"strings"
)

// Goal is one of the performance goals the benchmark reports on, with what
// this run measured.
type Goal struct {
	Goal     string `json:"goal"`
	Measured string `json:"measured"`
	// Status is "met", "missed" or "not measured".
	Status string `json:"status"`
}

// The goal statuses.
const (
	Met         = "met"
	Missed      = "missed"
	NotMeasured = "not measured"
)

// sampleIndex finds a run's samples by cell and subject.
type sampleIndex map[rowKey][]Sample

func indexSamples(ss []Sample) sampleIndex {
	ix := sampleIndex{}
	for _, s := range ss {
		k := rowKey{s.Cell, s.Subject}
		ix[k] = append(ix[k], s)
	}
	return ix
}

func singleCell(clients int, keys KeyMode) Cell {
	return Cell{Family: Single, Nodes: 1, Clients: clients, Keys: keys}
}

// Goals evaluates the goals on res: each pattern's cost relative to the
// floor and to the libraries, Redlock against the hand-written fan-out, and
// the blocking acquire against the tight retry loop on a hot key.
func Goals(res *Result) []Goal {
	ix := indexSamples(res.Samples)
	clients := res.Config.Clients
	var out []Goal
	for _, g := range []struct {
		name string
		min  float64
	}{{"basic", 0.95}, {"fenced", 0.95}, {"service", 0.85}} {
		out = append(out, floorGoal(ix, clients, g.name, g.min))
	}
	for _, p := range subjectsOf(res.Samples, KindPattern, Single) {
		out = append(out, levelGoal(ix, clients, p, Single, libraries(res.Samples, Single), 1))
	}
	for _, n := range res.Config.QuorumNodes {
		for _, p := range subjectsOf(res.Samples, KindPattern, Quorum) {
			out = append(out, levelGoal(ix, clients, p, Quorum, libraries(res.Samples, Quorum), n))
		}
	}
	out = append(out, fanOutGoal(ix, clients, 5))
	return append(out, hotKeyGoal(ix, 64))
}

// ratios returns, per client count with data, the paired ratio of a to b
// on distinct keys with n nodes.
func (ix sampleIndex) ratios(clients []int, a, b string, fam Family, n int) map[int]float64 {
	out := map[int]float64{}
	for _, c := range clients {
		cell := Cell{Family: fam, Nodes: n, Clients: c, Keys: Distinct}
		sa, sb := ix[rowKey{cell, a}], ix[rowKey{cell, b}]
		if r, ok := pairedRatio(sa, sb); ok {
			out[c] = r
		}
	}
	return out
}

// describe lists ratios by client count and returns the smallest.
func describe(rs map[int]float64) (string, float64) {
	if len(rs) == 0 {
		return "no such cells in this run", 0
	}
	cs := make([]int, 0, len(rs))
	for c := range rs {
		cs = append(cs, c)
	}
	slices.Sort(cs)
	var parts []string
	lo := 0.0
	for i, c := range cs {
		parts = append(parts, fmt.Sprintf("%.2f@%d", rs[c], c))
		if i == 0 || rs[c] < lo {
			lo = rs[c]
		}
	}
	return strings.Join(parts, " "), lo
}

func status(measured bool, ok bool) string {
	switch {
	case !measured:
		return NotMeasured
	case ok:
		return Met
	default:
		return Missed
	}
}

func floorGoal(ix sampleIndex, clients []int, name string, min float64) Goal {
	rs := ix.ratios(clients, name, "floor", Single, 1)
	text, lo := describe(rs)
	return Goal{
		Goal:     fmt.Sprintf("%s acquire+release ≥ %.0f%% of the floor at every client count (distinct keys)", name, min*100),
		Measured: "ratio@clients: " + text,
		Status:   status(len(rs) == len(clients), lo >= min),
	}
}

func levelGoal(ix sampleIndex, clients []int, pattern string, fam Family, libs []string, nodes int) Goal {
	g := Goal{Goal: fmt.Sprintf("%s at least level with %s (distinct keys, %d node(s))", pattern, orNone(libs), nodes)}
	if len(libs) == 0 {
		g.Measured, g.Status = "library references not linked into this binary (run the bench/refs module)", NotMeasured
		return g
	}
	ok, measured := true, true
	var parts []string
	for _, lib := range libs {
		rs := ix.ratios(clients, pattern, lib, fam, nodes)
		text, lo := describe(rs)
		measured = measured && len(rs) > 0
		ok = ok && lo >= 1
		parts = append(parts, fmt.Sprintf("vs %s: %s", lib, text))
	}
	g.Measured, g.Status = strings.Join(parts, "; "), status(measured, ok)
	return g
}

func orNone(libs []string) string {
	if len(libs) == 0 {
		return "the libraries"
	}
	return strings.Join(libs, " and ")
}

func fanOutGoal(ix sampleIndex, clients []int, nodes int) Goal {
	rs := ix.ratios(clients, "redlock", "fanout", Quorum, nodes)
	text, lo := describe(rs)
	return Goal{
		Goal:     fmt.Sprintf("redlock over %d nodes ≥ 95%% of the hand-written parallel fan-out (distinct keys)", nodes),
		Measured: "ratio@clients: " + text,
		Status:   status(len(rs) > 0, lo >= 0.95),
	}
}

// hotKeyGoal compares Service's blocking acquire with the floor's tight
// retry loop on one hot key.
func hotKeyGoal(ix sampleIndex, clients int) Goal {
	g := Goal{Goal: fmt.Sprintf("hot key, %d clients: service ≥ 3× the acquisitions/s of the tight retry loop (floor), with p99 wait ≤ 1/5 of it", clients)}
	cell := singleCell(clients, Hot)
	sv, fl := ix[rowKey{cell, "service"}], ix[rowKey{cell, "floor"}]
	if len(sv) == 0 || len(fl) == 0 {
		g.Status = NotMeasured
		return g
	}
	a, b := summarise(sv), summarise(fl)
	speed, ok := pairedRatio(sv, fl)
	wait := ratio(b.AcquireP99, a.AcquireP99)
	g.Measured = fmt.Sprintf("service %.0f/s vs floor %.0f/s (×%.2f); p99 wait %s vs %s (floor/service %.2f)",
		a.CyclesPerSec, b.CyclesPerSec, speed, fmtUS(a.AcquireP99), fmtUS(b.AcquireP99), wait)
	g.Status = status(ok && a.AcquireP99 > 0, speed >= 3 && wait >= 5)
	return g
}

// subjectsOf lists the names of kind k in family f, sorted.
func subjectsOf(ss []Sample, k Kind, f Family) []string {
	var out []string
	for _, s := range ss {
		if s.Kind == k && s.Cell.Family == f && !slices.Contains(out, s.Subject) {
			out = append(out, s.Subject)
		}
	}
	slices.Sort(out)
	return out
}

func libraries(ss []Sample, f Family) []string { return subjectsOf(ss, KindLibrary, f) }
