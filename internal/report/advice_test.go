package report

import (
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/pattern"
)

// synth builds measurements by hand: every pattern under every scenario
// with seeds seeds, filled in by fill.
func synth(patterns []PatternInfo, scenarios []string, seeds int, fill func(c *Cell)) *Measurements {
	m := &Measurements{Seeds: seeds, BaselineSeeds: 1, Patterns: patterns}
	for _, s := range scenarios {
		n := seeds
		if s == Baseline {
			n = 1
		}
		m.Scenarios = append(m.Scenarios, ScenarioInfo{Name: s, Seeds: n, Summary: s + " happens"})
	}
	for _, p := range patterns {
		var row []*Cell
		for _, s := range m.Scenarios {
			c := &Cell{Pattern: p.Name, Scenario: s.Name, Seeds: s.Seeds, SimTime: time.Duration(s.Seeds) * time.Second}
			if p.Tokens {
				c.NoFence = &Loss{}
			}
			fill(c)
			row = append(row, c)
		}
		m.Cells = append(m.Cells, row)
	}
	return m
}

var synthPatterns = []PatternInfo{
	{Name: "basic", Nodes: 1, Claims: pattern.Claims{Mutex: true}},
	{Name: "fenced", Nodes: 1, Claims: pattern.Claims{SafeStore: true, Fencing: true}, Tokens: true},
	{Name: "redlock", Nodes: 5, Claims: pattern.Claims{Mutex: true}},
	{Name: "semaphore", Nodes: 1, Claims: pattern.Claims{MaxHolders: 2}, Shared: true},
	{Name: "basic-del", Nodes: 1, Claims: pattern.Claims{Mutex: true}, Broken: true},
}

// lose marks seeds violating and losing updates, withheld tokens losing
// as many.
func lose(c *Cell, seeds int) {
	c.Violating, c.FirstSeed, c.LostRuns, c.Lost = seeds, 1, seeds, 2*seeds
	c.Kinds[Safety].Violating = seeds
	if c.NoFence != nil {
		c.NoFence.Runs, c.NoFence.Total = seeds, 2*seeds
		c.Violating, c.LostRuns, c.Lost = 0, 0, 0
		c.Kinds[Safety].Violating = 0
	}
}

func adviceText(l List) string {
	var b strings.Builder
	for _, item := range l {
		for _, s := range item {
			b.WriteString(s.Text)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestAdvice(t *testing.T) {
	m := synth(synthPatterns, []string{"gc-pause", "node-restart", "partition", Baseline}, 10, func(c *Cell) {
		switch {
		case c.Scenario == "gc-pause" && c.Pattern != "semaphore":
			lose(c, 10) // fenced's tokens absorb it: lose leaves it clean
		case c.Scenario == "node-restart" && c.Pattern != "redlock":
			lose(c, 4)
			if c.NoFence != nil { // the fence counter is lost too
				c.Violating, c.LostRuns, c.Lost = 4, 4, 4
				c.Kinds[Safety].Violating = 4
			}
		case c.Scenario == "partition" && c.Pattern == "semaphore":
			c.LostRuns, c.Lost = 3, 5
		case c.Scenario == "partition" && c.Pattern == "basic":
			c.StuckRuns = 6
		}
		c.Acquisitions = map[string]int{"basic": 30, "fenced": 29, "redlock": 25}[c.Pattern] * c.Seeds
		c.P99Wait = time.Duration(len(c.Pattern)) * time.Millisecond
	})
	got := adviceText(Advise(m, nil))
	for _, want := range []string{
		"use fenced with a store that checks its fencing tokens: it lost updates in 4/30 (13%, 5.3–30%) of its fault-scenario runs, the fewest; separated above it: basic 14/30 (47%, 30–64%); not separated from it by the intervals: redlock 10/30 (33%, 19–51%).",
		"With the tokens withheld from the store, the same runs lost updates in 14/30 (47%, 30–64%)",
		"Under gc-pause, fenced lost no update (0/10 (0%, 0–28%) †); separated above it: basic 10/10 (100%, 72–100%), redlock 10/10 (100%, 72–100%).",
		// 0/10 and 4/10 overlap: no win is called.
		"Under node-restart, redlock lost no update (0/10 (0%, 0–28%) †); not separated from it by the intervals: basic 4/10 (40%, 17–69%), fenced 4/10 (40%, 17–69%).",
		"No pattern lost an update under partition (0/10 (0%, 0–28%) † each).",
		"If the protected resource cannot check fencing tokens, redlock kept mutual exclusion in every seed of 2 of 3 fault scenarios, more than any other pattern claiming it (a clean cell of 10 seeds rules out only rates above 28%) (basic 1).",
		"Under node-restart only redlock (5 nodes) kept mutual exclusion (0/10 (0%, 0–28%) †); every single-node pattern claiming it broke it at least once, not separated from it by the intervals: basic 4/10 (40%, 17–69%).",
		"acquisitions per simulated second range from 25.0 (redlock) to 30.0 (basic), and the p99 acquire wait (median over seeds) from 5.00 ms (basic) to 7.00 ms (redlock)",
		"semaphore is judged by its claim, max-holders=2: broken in 4/30 (13%, 5.3–30%) of its fault-scenario runs. Its lost updates (7/30 (23%, 12–41%)) are no verdict",
		"Every broken variant broke its claims under at least one scenario (scenarios that caught each: basic-del 2)",
		"Stuck clients (a client that acquired nothing in the run's last stretch: safe, but not live): under partition, basic 6/10 (60%, 31–83%).",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the advice lacks %q\nadvice:\n%s", want, got)
		}
	}
}

// TestAdviceSaysNothingWithoutGrounds checks rules that must stay silent:
// no single best pattern, no broken variant caught.
func TestAdviceSaysNothingWithoutGrounds(t *testing.T) {
	m := synth(synthPatterns, []string{"gc-pause"}, 5, func(c *Cell) {
		if c.Pattern != "basic-del" && c.Pattern != "semaphore" {
			c.Violating, c.FirstSeed, c.LostRuns, c.Lost = 5, 1, 5, 5
			c.Kinds[Safety].Violating = 5
		}
	})
	got := adviceText(Advise(m, nil))
	for _, absent := range []string{"For data that must not lose an update", "the fewest", "separated above"} {
		if strings.Contains(got, absent) {
			t.Errorf("the advice says %q without grounds:\n%s", absent, got)
		}
	}
	if !strings.Contains(got, "Not caught by any scenario in 5 seeds: basic-del") {
		t.Errorf("the advice does not say basic-del was not caught:\n%s", got)
	}
}

func TestCounterpart(t *testing.T) {
	m := synth([]PatternInfo{{Name: "redlock"}, {Name: "redlock-fenced-pernode", Broken: true}, {Name: "rwlock"}, {Name: "rwlock-write"},
		{Name: "rwlock-shared-count", Broken: true}, {Name: "odd", Broken: true}}, []string{"s"}, 1, func(*Cell) {})
	for i, want := range map[int]string{1: "redlock", 4: "rwlock", 5: ""} {
		got := ""
		if j := m.counterpart(i); j >= 0 {
			got = m.Patterns[j].Name
		}
		if got != want {
			t.Errorf("counterpart(%s) = %q, want %q", m.Patterns[i].Name, got, want)
		}
	}
}
