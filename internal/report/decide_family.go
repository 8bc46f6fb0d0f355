package report

import (
	"fmt"
	"slices"
	"strings"
)

// decideFamily decides a row about a specialised lock (FIFO, readers and
// writers): the family's correct pattern is the one to use, judged by its
// own claims against basic's over the same scenarios; a broken variant of
// the family is avoided where its violation rate lies wholly above the
// correct pattern's under some scenario — the mistake the variant keeps.
func decideFamily(m *Measurements, s situation) (Decision, bool) {
	var good, bad []int
	for i, p := range m.Patterns {
		if slices.Contains(s.family, p.Name) {
			if p.Broken {
				bad = append(bad, i)
			} else {
				good = append(good, i)
			}
		}
	}
	cols := m.faults()
	if len(good) == 0 || len(cols) == 0 {
		return Decision{}, false
	}
	g := good[0]
	k, n := m.pool(g, cols, s.metric)
	d := Decision{Situation: s.name, Use: []string{m.Patterns[g].Name}, Unsafe: Wilson(k, n).Lo > CareRate, Few: TooFewSeeds(k, n, CareRate)}
	ev := []string{fmt.Sprintf("%s under every fault scenario: %s %s", s.metric.what, m.Patterns[g].Name, rateMark(k, n))}
	if b := m.patternIndex("basic"); b >= 0 {
		bk, bn := m.pool(b, cols, s.metric)
		rel := "not separated from"
		switch {
		case Wilson(k, n).Below(Wilson(bk, bn)):
			rel = "separated below"
		case Wilson(bk, bn).Below(Wilson(k, n)):
			rel = "separated above"
		}
		ev = append(ev, fmt.Sprintf("%s basic's %s", rel, rateMark(bk, bn)))
	}
	for _, v := range bad {
		if where := m.worseUnder(v, g, cols); len(where) > 0 {
			d.Avoid = append(d.Avoid, m.Patterns[v].Name)
			ev = append(ev, fmt.Sprintf("%s is separated above it under %s", m.Patterns[v].Name, strings.Join(where, ", ")))
		} else {
			ev = append(ev, fmt.Sprintf("its broken variant %s is separated from it under no scenario of this report (the gate's own scenarios catch it)", m.Patterns[v].Name))
		}
	}
	if j := m.scenarioIndex(Baseline); j >= 0 {
		if b := m.patternIndex("basic"); b >= 0 {
			ev = append(ev, fmt.Sprintf("liveness without faults: %.1f acquisitions/s, p99 wait %s ms (basic %.1f, %s ms)",
				m.Cells[g][j].AcqPerSec(), ms(m.Cells[g][j].P99Wait), m.Cells[b][j].AcqPerSec(), ms(m.Cells[b][j].P99Wait)))
		}
	}
	d.Evidence = strings.Join(ev, "; ")
	return d, true
}

// pool sums a pattern's failing seeds and seeds over some scenarios.
func (m *Measurements) pool(i int, cols []int, mt metric) (k, n int) {
	for _, j := range cols {
		k, n = k+mt.runs(m.Cells[i][j]), n+m.Cells[i][j].Seeds
	}
	return k, n
}

// worseUnder names the scenarios under which variant v's violation rate
// lies wholly above pattern g's, each with both rates.
func (m *Measurements) worseUnder(v, g int, cols []int) []string {
	var out []string
	for _, j := range cols {
		cv, cg := m.Cells[v][j], m.Cells[g][j]
		if Wilson(cg.Kinds[Safety].Violating, cg.Seeds).Below(Wilson(cv.Kinds[Safety].Violating, cv.Seeds)) {
			out = append(out, fmt.Sprintf("%s (%s against %s)", m.Scenarios[j].Name, rateMark(cv.Kinds[Safety].Violating, cv.Seeds), rateMark(cg.Kinds[Safety].Violating, cg.Seeds)))
		}
	}
	return out
}

func (m *Measurements) patternIndex(name string) int {
	for i, p := range m.Patterns {
		if p.Name == name {
			return i
		}
	}
	return -1
}
