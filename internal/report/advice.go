package report

import (
	"slices"
	"strings"

	"github.com/locksim/locksim/pattern"
)

// Advise applies the report's rules to the measurements (and the benchmark,
// nil if none) and returns one item per conclusion. Every rule cites the
// numbers it rests on; a rule whose condition does not hold says nothing.
func Advise(m *Measurements, b *Bench) List {
	var out List
	for _, rule := range []func(*Measurements) List{adviseData, adviseScenarios, adviseMutex, adviseQuorum, adviseShared, adviseLiveness, adviseBroken} {
		out = append(out, rule(m)...)
	}
	if b != nil {
		out = append(out, adviseHotKey(b)...)
		out = append(out, adviseCost(m, b)...)
	}
	return out
}

// exclusive lists the correct patterns that promise one holder at a time:
// they claim mutex or safe-store, and hold no shared leases.
func (m *Measurements) exclusive() []int {
	var out []int
	for i, p := range m.Patterns {
		if !p.Broken && !p.Shared && (p.Claims.Has(pattern.ClaimMutex) || p.Claims.Has(pattern.ClaimSafeStore)) {
			out = append(out, i)
		}
	}
	return out
}

// faults lists the scenario indexes other than the baseline.
func (m *Measurements) faults() []int {
	var out []int
	for j, s := range m.Scenarios {
		if s.Name != Baseline {
			out = append(out, j)
		}
	}
	return out
}

// sum adds f over the fault scenarios of pattern i.
func (m *Measurements) sum(i int, f func(*Cell) int) int {
	n := 0
	for _, j := range m.faults() {
		n += f(m.Cells[i][j])
	}
	return n
}

func (m *Measurements) faultRuns(i int) int { return m.sum(i, func(c *Cell) int { return c.Seeds }) }

// ranked sorts pattern indexes by key, ascending, ties by name order.
func ranked(idx []int, key func(int) int) []int {
	out := slices.Clone(idx)
	slices.SortStableFunc(out, func(a, b int) int { return key(a) - key(b) })
	return out
}

// rated is a pattern's failing seeds of some runs.
type rated struct {
	name string
	k, n int
}

func (r rated) String() string     { return r.name + " " + rateMark(r.k, r.n) }
func (r rated) interval() Interval { return Wilson(r.k, r.n) }
func joinRated(rs []rated) string  { return strings.Join(mapRated(rs), ", ") }
func mapRated(rs []rated) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.String())
	}
	return out
}

// splitAbove splits rs into those whose interval lies wholly above ref's
// and those the intervals do not tell apart from it.
func splitAbove(ref Interval, rs []rated) (above, tied []rated) {
	for _, r := range rs {
		if ref.Below(r.interval()) {
			above = append(above, r)
		} else {
			tied = append(tied, r)
		}
	}
	return above, tied
}

// separation says which of the others the intervals put above ref, and
// which they do not tell apart from it.
func separation(above, tied []rated) string {
	var parts []string
	if len(above) > 0 {
		parts = append(parts, "separated above it: "+joinRated(above))
	}
	if len(tied) > 0 {
		parts = append(parts, "not separated from it by the intervals: "+joinRated(tied))
	}
	return strings.Join(parts, "; ")
}
