package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/pattern"
)

// decisionOf returns the decision of the situation whose name starts with
// prefix.
func decisionOf(t *testing.T, ds []Decision, prefix string) Decision {
	t.Helper()
	for _, d := range ds {
		if strings.HasPrefix(d.Situation, prefix) {
			return d
		}
	}
	t.Fatalf("no decision for %q in %d rows", prefix, len(ds))
	return Decision{}
}

func TestDecideUsesTheSeparatedBest(t *testing.T) {
	m := synth(synthPatterns, []string{"gc-pause", "slow-work", Baseline}, 40, func(c *Cell) {
		switch {
		case c.Pattern == "basic":
			lose(c, 30)
		case c.Pattern == "redlock" && c.Scenario == "gc-pause":
			lose(c, 2) // 2/40 (1–16%) is not separated from fenced's 0/40
		case c.Pattern == "redlock":
			lose(c, 30)
		case c.Pattern == "fenced":
			lose(c, 30) // the tokens withheld: lost; checked: none
		}
	})
	ds := Decide(m)
	gc := decisionOf(t, ds, "Pauses")
	if len(gc.Use) != 2 || !strings.HasPrefix(gc.Use[0], "fenced") || gc.Use[1] != "redlock" {
		t.Errorf("gc-pause use = %q, want fenced (with its tokens checked), then redlock: 2/40 is not told apart from 0/40", gc.Use)
	}
	if !slices.Equal(gc.Avoid, []string{"basic"}) {
		t.Errorf("gc-pause avoid = %q, want [basic]", gc.Avoid)
	}
	if gc.Unsafe || gc.Few {
		t.Errorf("gc-pause: Unsafe %v, Few %v; want neither: 0/40 clears the care rate", gc.Unsafe, gc.Few)
	}
	for _, want := range []string{"fenced 0/40 (0%, 0–8.8%)", "basic 30/40 (75%, 60–86%)", "gc-pause"} {
		if !strings.Contains(gc.Evidence, want) {
			t.Errorf("gc-pause evidence %q lacks %q", gc.Evidence, want)
		}
	}
	slow := decisionOf(t, ds, "Work may outlive")
	if len(slow.Use) != 1 || !strings.HasPrefix(slow.Use[0], "fenced") || !slices.Equal(slow.Avoid, []string{"basic", "redlock"}) {
		t.Errorf("slow-work: use %q avoid %q, want fenced and [basic redlock]", slow.Use, slow.Avoid)
	}
	// Without token checks fenced loses as much as basic: no pattern is
	// separated from the best but redlock loses less under gc-pause.
	nc := decisionOf(t, ds, "The store cannot")
	if !nc.Unsafe {
		t.Errorf("store cannot check: %+v, want Unsafe: every candidate loses in over 10%% of seeds for sure", nc)
	}
	if len(nc.Use) == 0 || nc.Use[0] != "redlock" {
		t.Errorf("store cannot check: use %q, want redlock (32/80) first", nc.Use)
	}
}

func TestDecideMarksTooFewSeeds(t *testing.T) {
	m := synth(synthPatterns, []string{"gc-pause", Baseline}, 5, func(c *Cell) {
		if c.Pattern == "basic" {
			lose(c, 5)
		}
	})
	gc := decisionOf(t, Decide(m), "Pauses")
	if !gc.Few {
		t.Errorf("gc-pause over 5 seeds: %+v, want Few: 0/5 cannot rule out 10%%", gc)
	}
	if !slices.Equal(gc.Avoid, []string{"basic"}) {
		t.Errorf("gc-pause avoid = %q, want [basic]: 5/5 (57–100%%) is above 0/5 (0–43%%)", gc.Avoid)
	}
	tbl := decisionTable([]Decision{gc, {Situation: "tied", Use: []string{"a", "b"}}})
	if got := tbl.Rows[0][1].Tone; got != Warn {
		t.Errorf("a too-few-seeds choice has tone %v, want Warn", got)
	}
	if got := tbl.Rows[1][1]; got.Tone != Warn || !strings.Contains(got.Spans[0].Text, "not told apart") {
		t.Errorf("a row with nothing separated reads %+v, want a warning that the intervals do not tell them apart", got)
	}
}

func TestDecideSaysNothingWithoutCandidates(t *testing.T) {
	m := synth(synthPatterns[:1], []string{"gc-pause"}, 20, func(*Cell) {})
	if ds := Decide(m); len(ds) != 0 {
		t.Errorf("one candidate: %d decisions, want none", len(ds))
	}
}

func TestDecideFamilyAvoidsTheCaughtVariant(t *testing.T) {
	ps := []PatternInfo{
		{Name: "basic", Nodes: 1, Claims: pattern.Claims{Mutex: true}},
		{Name: "fenced", Nodes: 1, Claims: pattern.Claims{SafeStore: true, Fencing: true}, Tokens: true},
		{Name: "fair", Nodes: 1, Claims: pattern.Claims{Mutex: true}},
		{Name: "fair-clock-queue", Nodes: 1, Claims: pattern.Claims{Mutex: true}, Broken: true},
	}
	m := synth(ps, []string{"client-clock-jump", "gc-pause", Baseline}, 40, func(c *Cell) {
		switch {
		case c.Scenario == "gc-pause" && c.Pattern != "fenced":
			lose(c, 30) // fair shares basic's limit
		case c.Scenario == "client-clock-jump" && c.Pattern == "fair-clock-queue":
			lose(c, 12) // the variant's own mistake
		}
	})
	d := decisionOf(t, Decide(m), "Need FIFO")
	if !slices.Equal(d.Use, []string{"fair"}) || !slices.Equal(d.Avoid, []string{"fair-clock-queue"}) {
		t.Errorf("FIFO: use %q avoid %q, want [fair] and [fair-clock-queue]", d.Use, d.Avoid)
	}
	for _, want := range []string{"fair 30/80", "not separated from basic's 30/80", "fair-clock-queue is separated above it under client-clock-jump (12/40"} {
		if !strings.Contains(d.Evidence, want) {
			t.Errorf("FIFO evidence %q lacks %q", d.Evidence, want)
		}
	}
	if !d.Unsafe {
		t.Errorf("FIFO: fair breaks mutex in 30/80 seeds; want the row marked unsafe")
	}
}

// TestFIFOFamilyIsTheRegistrys: the FIFO row compares the patterns the
// registry marks FIFO (the fair lock, fenced or not, and the seed's fair
// lock that imitates it), correct ones first, so that the row uses fair.
func TestFIFOFamilyIsTheRegistrys(t *testing.T) {
	want := []string{"fair", "fair-fenced", "fair-clock-queue"}
	if got := FIFO(); !slices.Equal(got, want) {
		t.Errorf("FIFO() = %q, want %q", got, want)
	}
}

// TestDecideLeavesOutAScenarioCleanForAll: a scenario in which no
// candidate failed is not pooled with one in which some did (it would
// read redlock's 7/20 under client-clock-drift as 7/40), and the evidence
// names it. Before, the row cited "redlock 7/40".
func TestDecideLeavesOutAScenarioCleanForAll(t *testing.T) {
	m := synth(synthPatterns, []string{"client-clock-drift", "client-clock-jump", Baseline}, 20, func(c *Cell) {
		if c.Scenario != "client-clock-drift" {
			return
		}
		switch c.Pattern {
		case "basic":
			lose(c, 19)
		case "redlock":
			lose(c, 7)
		}
	})
	d := decisionOf(t, Decide(m), "Clients' clocks")
	for _, want := range []string{"under client-clock-drift:", "redlock 7/20", "not pooled, every candidate clean there: client-clock-jump (0/20 each)"} {
		if !strings.Contains(d.Evidence, want) {
			t.Errorf("evidence %q lacks %q", d.Evidence, want)
		}
	}
	if strings.Contains(d.Evidence, "/40") {
		t.Errorf("evidence %q pools the clean scenario", d.Evidence)
	}
	if !slices.Contains(d.Avoid, "redlock") {
		t.Errorf("use %q avoid %q: want redlock avoided (7/20 against fenced's 0/20)", d.Use, d.Avoid)
	}
}

// TestDecidePoolsWhenEveryScenarioIsClean: with no failure anywhere, the
// scenarios are pooled, together the evidence that nothing failed.
func TestDecidePoolsWhenEveryScenarioIsClean(t *testing.T) {
	m := synth(synthPatterns, []string{"client-clock-drift", "client-clock-jump", Baseline}, 20, func(*Cell) {})
	d := decisionOf(t, Decide(m), "Clients' clocks")
	if !strings.Contains(d.Evidence, "client-clock-drift, client-clock-jump") || strings.Contains(d.Evidence, "not pooled") {
		t.Errorf("evidence %q: want both scenarios pooled", d.Evidence)
	}
}
