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
	// Status is "met", "missed", "within noise" or "not measured", from
	// the confidence intervals of the measured ratios, not their medians:
	// met when every interval lies at or above the goal's threshold,
	// missed when one lies wholly below it, within noise otherwise.
	Status string `json:"status"`
}

// The goal statuses.
const (
	Met         = "met"
	Missed      = "missed"
	WithinNoise = "within noise"
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
// on distinct keys with n nodes, with its interval.
func (ix sampleIndex) ratios(clients []int, a, b string, fam Family, n int) map[int]Interval {
	out := map[int]Interval{}
	for _, c := range clients {
		cell := Cell{Family: fam, Nodes: n, Clients: c, Keys: Distinct}
		sa, sb := ix[rowKey{cell, a}], ix[rowKey{cell, b}]
		if iv, ok := pairedInterval(sa, sb); ok {
			out[c] = iv
		}
	}
	return out
}

// describe lists ratios by client count ("0.97 [0.93, 1.01]@8") and
// returns their combined verdict against min.
func describe(rs map[int]Interval, min float64) (string, string) {
	if len(rs) == 0 {
		return "no such cells in this run", NotMeasured
	}
	cs := make([]int, 0, len(rs))
	for c := range rs {
		cs = append(cs, c)
	}
	slices.Sort(cs)
	var parts, verdicts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s@%d", rs[c], c))
		verdicts = append(verdicts, rs[c].Verdict(min))
	}
	return strings.Join(parts, " "), worst(verdicts)
}

// status is the verdict, or not measured when cells are missing.
func status(measured bool, verdict string) string {
	if !measured {
		return NotMeasured
	}
	return verdict
}

func floorGoal(ix sampleIndex, clients []int, name string, min float64) Goal {
	rs := ix.ratios(clients, name, "floor", Single, 1)
	text, v := describe(rs, min)
	return Goal{
		Goal:     fmt.Sprintf("%s acquire+release ≥ %.0f%% of the floor at every client count (distinct keys)", name, min*100),
		Measured: "ratio@clients: " + text,
		Status:   status(len(rs) == len(clients), v),
	}
}

func levelGoal(ix sampleIndex, clients []int, pattern string, fam Family, libs []string, nodes int) Goal {
	g := Goal{Goal: fmt.Sprintf("%s at least level with %s (distinct keys, %d node(s))", pattern, orNone(libs), nodes)}
	if len(libs) == 0 {
		g.Measured, g.Status = "library references not linked into this binary (run the bench/refs module)", NotMeasured
		return g
	}
	measured := true
	var parts, verdicts []string
	for _, lib := range libs {
		rs := ix.ratios(clients, pattern, lib, fam, nodes)
		text, v := describe(rs, 1)
		measured = measured && len(rs) > 0
		verdicts = append(verdicts, v)
		parts = append(parts, fmt.Sprintf("vs %s: %s", lib, text))
	}
	g.Measured, g.Status = strings.Join(parts, "; "), status(measured, worst(verdicts))
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
	text, v := describe(rs, 0.95)
	return Goal{
		Goal:     fmt.Sprintf("redlock over %d nodes ≥ 95%% of the hand-written parallel fan-out (distinct keys)", nodes),
		Measured: "ratio@clients: " + text,
		Status:   status(len(rs) > 0, v),
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
	speed, ok := pairedInterval(sv, fl)
	wait := MedianInterval(pairedValues(sv, fl, func(x, y Sample) (float64, bool) {
		p := x.Acquire.Quantile(0.99)
		return ratio(float64(y.Acquire.Quantile(0.99)), float64(p)), p > 0
	}))
	g.Measured = fmt.Sprintf("service %.0f/s vs floor %.0f/s (×%s); p99 wait %s vs %s (floor/service, per repetition: %s)",
		a.CyclesPerSec, b.CyclesPerSec, speed, fmtUS(a.AcquireP99), fmtUS(b.AcquireP99), wait)
	g.Status = status(ok && a.AcquireP99 > 0, worst([]string{speed.Verdict(3), wait.Verdict(5)}))
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
