package report

import (
	"fmt"
	"strings"

	"github.com/locksim/locksim/pattern"
)

// adviseData names the pattern that lost updates in the fewest fault runs
// (bestData), with the others' rates, and calls it a win only over those
// its interval separates.
func adviseData(m *Measurements) List {
	best := bestData(m)
	if best < 0 {
		return nil
	}
	loss := func(i int) int { return m.sum(i, func(c *Cell) int { return c.LostRuns }) }
	var others []rated
	for _, i := range ranked(m.exclusive(), loss) {
		if i != best {
			others = append(others, rated{m.Patterns[i].Name, loss(i), m.faultRuns(i)})
		}
	}
	p, runs := m.Patterns[best], m.faultRuns(best)
	ref := rated{p.Name, loss(best), runs}
	above, tied := splitAbove(ref.interval(), others)
	s := []Span{text("For data that must not lose an update, use "), bold("%s", p.Name)}
	if p.Tokens {
		s = append(s, text(" with a store that checks its fencing tokens"))
	}
	s = append(s, text(": it lost updates in %s of its fault-scenario runs, the fewest; %s.", rateMark(ref.k, runs), separation(above, tied)))
	if p.Tokens {
		nf := m.sum(best, noFenceRuns)
		s = append(s, text(" With the tokens withheld from the store, the same runs lost updates in %s: the fencing, not the lock, keeps the data.", rateMark(nf, runs)))
	}
	return List{s}
}

// bestData is the index of the one-holder pattern that lost updates in the
// fewest fault-scenario runs, or -1 when none stands alone.
func bestData(m *Measurements) int {
	ex := m.exclusive()
	if len(ex) < 2 || len(m.faults()) == 0 {
		return -1
	}
	loss := func(i int) int { return m.sum(i, func(c *Cell) int { return c.LostRuns }) }
	r := ranked(ex, loss)
	if loss(r[0]) == loss(r[1]) {
		return -1
	}
	return r[0]
}

// seedsText is "1 seed" or "n seeds".
func seedsText(n int) string {
	if n == 1 {
		return "1 seed"
	}
	return fmt.Sprintf("%d seeds", n)
}

func noFenceRuns(c *Cell) int {
	if c.NoFence == nil {
		return c.LostRuns
	}
	return c.NoFence.Runs
}

// adviseScenarios says, per fault scenario, which patterns lost no update
// and which the intervals separate from them, or, when every pattern lost
// some, which lost the fewest; scenarios where none lost one are grouped.
func adviseScenarios(m *Measurements) List {
	ex := m.exclusive()
	var out List
	var allSafe []string
	for _, j := range m.faults() {
		var safe []string
		var lossy []rated
		for _, i := range ranked(ex, func(i int) int { return m.Cells[i][j].LostRuns }) {
			c := m.Cells[i][j]
			if c.LostRuns == 0 {
				safe = append(safe, m.Patterns[i].Name)
			} else {
				lossy = append(lossy, rated{c.Pattern, c.LostRuns, c.Seeds})
			}
		}
		s := m.Scenarios[j]
		switch {
		case len(lossy) == 0:
			allSafe = append(allSafe, s.Name)
		case len(safe) == 0 && lossy[0].k == lossy[len(lossy)-1].k:
			out = append(out, []Span{text("Every pattern lost updates under "), bold("%s", s.Name), text(" (%s), alike: %s.", s.Summary, joinRated(lossy))})
		case len(safe) == 0:
			above, tied := splitAbove(lossy[0].interval(), lossy[1:])
			out = append(out, []Span{text("No pattern kept every update under "), bold("%s", s.Name), text(" (%s); the fewest seeds with a lost update: %s; %s.",
				s.Summary, lossy[0], separation(above, tied))})
		default:
			above, tied := splitAbove(Wilson(0, s.Seeds), lossy)
			each := ""
			if len(safe) > 1 {
				each = " each"
			}
			out = append(out, []Span{text("Under "), bold("%s", s.Name), text(", "), bold("%s", strings.Join(safe, ", ")),
				text(" lost no update (%s%s); %s.", rateMark(0, s.Seeds), each, separation(above, tied))})
		}
	}
	if len(allSafe) > 0 {
		out = append(out, []Span{text("No pattern lost an update under %s (%s each).", strings.Join(allSafe, ", "), rateMark(0, m.Seeds))})
	}
	return out
}

// adviseMutex ranks the patterns claiming mutex by the fault scenarios in
// which no seed broke it: the choice when the resource cannot check tokens.
func adviseMutex(m *Measurements) List {
	var mutex []int
	for _, i := range m.exclusive() {
		if m.Patterns[i].Claims.Has(pattern.ClaimMutex) {
			mutex = append(mutex, i)
		}
	}
	if len(mutex) < 2 {
		return nil
	}
	clean := func(i int) int { return m.sum(i, func(c *Cell) int { return btoi(c.Kinds[Safety].Violating == 0) }) }
	r := ranked(mutex, func(i int) int { return -clean(i) })
	if clean(r[0]) == 0 {
		return nil
	}
	var best, others []string
	for _, i := range r {
		if clean(i) == clean(r[0]) {
			best = append(best, m.Patterns[i].Name)
		} else {
			others = append(others, fmt.Sprintf("%s %d", m.Patterns[i].Name, clean(i)))
		}
	}
	s := []Span{text("If the protected resource cannot check fencing tokens, "), bold("%s", strings.Join(best, ", ")),
		text(" kept mutual exclusion in every seed of %d of %d fault scenarios, more than any other pattern claiming it (a clean cell of %s rules out only rates above %s%%)",
			clean(r[0]), len(m.faults()), seedsText(m.Seeds), pct(Wilson(0, m.Seeds).Hi))}
	if len(others) > 0 {
		s = append(s, text(" (%s)", strings.Join(others, ", ")))
	}
	return List{append(s, text("."))}
}

// adviseQuorum names the fault scenarios in which only multi-node patterns
// kept mutual exclusion.
func adviseQuorum(m *Measurements) List {
	var out List
	for _, j := range m.faults() {
		var multi []string
		var single []rated
		for _, i := range m.exclusive() {
			p, c := m.Patterns[i], m.Cells[i][j]
			if !p.Claims.Has(pattern.ClaimMutex) {
				continue
			}
			if p.Nodes > 1 && c.Kinds[Safety].Violating == 0 {
				multi = append(multi, fmt.Sprintf("%s (%d nodes)", p.Name, p.Nodes))
			}
			if p.Nodes == 1 && c.Kinds[Safety].Violating > 0 {
				single = append(single, rated{p.Name, c.Kinds[Safety].Violating, c.Seeds})
			}
		}
		if len(multi) > 0 && len(single) > 0 && !m.anySingleClean(j) {
			above, tied := splitAbove(Wilson(0, m.Scenarios[j].Seeds), single)
			out = append(out, []Span{text("Under "), bold("%s", m.Scenarios[j].Name), text(" only "), bold("%s", strings.Join(multi, ", ")),
				text(" kept mutual exclusion (%s); every single-node pattern claiming it broke it at least once, %s.", rateMark(0, m.Scenarios[j].Seeds), separation(above, tied))})
		}
	}
	return out
}

// anySingleClean reports whether some single-node pattern claiming mutex
// broke it in no seed of scenario j.
func (m *Measurements) anySingleClean(j int) bool {
	for _, i := range m.exclusive() {
		if m.Patterns[i].Nodes == 1 && m.Patterns[i].Claims.Has(pattern.ClaimMutex) && m.Cells[i][j].Kinds[Safety].Violating == 0 {
			return true
		}
	}
	return false
}
