package report

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/advise"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// TestDecisionTableIsTheAdvisors: every row of the decision table is the
// advisor's answer to its flags over the evidence the report writes, read
// back from its bytes as locksim advise reads it, so the two never
// disagree; and the cell a team reads says the same choice.
func TestDecisionTableIsTheAdvisors(t *testing.T) {
	m := synth(synthPatterns, []string{"gc-pause", "node-restart-without-persistence", "delayed-reply", Baseline}, 20, func(c *Cell) {
		switch {
		case c.Scenario == "gc-pause" && c.Pattern != "fenced":
			c.OverlapRuns, c.LostRuns = 12, 12
			c.FirstOf = map[string]uint64{FindingOverlap: 2, FindingLost: 2}
		case c.Scenario == "gc-pause":
			c.OverlapRuns = 12
			c.FirstOf = map[string]uint64{FindingOverlap: 2}
		}
	})
	ev := Evidence(m, nil, nil, Options{Commit: "abc"})
	var b bytes.Buffer
	if err := ev.Write(&b); err != nil {
		t.Fatal(err)
	}
	read, err := advise.ReadEvidence(&b)
	if err != nil {
		t.Fatalf("the evidence the report writes does not read back: %v", err)
	}
	ds := decide(ev)
	tbl := decisionTable(ds)
	if len(ds) != len(ReportSituations()) || len(tbl.Rows) != len(ds) {
		t.Fatalf("%d decisions, %d rows, want one per situation (%d)", len(ds), len(tbl.Rows), len(ReportSituations()))
	}
	for i, d := range ds {
		s, err := ReportSituations()[i].Situation()
		if err != nil {
			t.Fatal(err)
		}
		a, err := advise.Advise(s, read)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(d.Answer)
		want, _ := json.Marshal(a)
		if i := firstDiff(got, want); i >= 0 {
			t.Errorf("%s: the table's answer differs from advise's at byte %d:\n%s\n%s", d.Situation, i, around(got, i), around(want, i))
		}
		if use := tbl.Rows[i][1].Spans[0].Text; use != a.UseText() {
			t.Errorf("%s: the table says %q, advise %q", d.Situation, use, a.UseText())
		}
	}
	pay := ds[1].Answer
	if !slices.Equal(pay.Use, []string{"fenced"}) || !strings.Contains(strings.Join(pay.NotProtected, " "), "run twice") {
		t.Errorf("payment job: use %q, not protected %q; want fenced, which may still run twice", pay.Use, pay.NotProtected)
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func around(b []byte, i int) string { return string(b[max(0, i-60):min(len(b), i+60)]) }

// TestEvidenceCountsTheOracles: a measured cell's evidence counts the
// seeds of each finding as the cell does and names the lowest seed of
// each, so that the advisor's replay command replays a seed that had it.
func TestEvidenceCountsTheOracles(t *testing.T) {
	b, err := scenarioBuiltin("gc-pause")
	if err != nil {
		t.Fatal(err)
	}
	basic, _ := pattern.Lookup("basic")
	fenced, _ := pattern.Lookup("fenced")
	m, err := Measure(context.Background(), Config{Seeds: 4, BaselineSeeds: 1, Patterns: []pattern.Pattern{basic, fenced}, Scenarios: []scenario.Builtin{b}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	ev := Evidence(m, nil, nil, Options{})
	for _, ec := range ev.Cells {
		c := m.Cell(ec.Pattern, ec.Scenario)
		if ec.Overlap.Runs != c.OverlapRuns || ec.Lost.Runs != c.LostRuns || ec.Seeds != c.Seeds || ec.DoubleRuns != c.Overlaps || ec.Acquisitions != c.Acquisitions {
			t.Errorf("%s/%s: evidence %+v, cell overlap %d lost %d seeds %d", ec.Pattern, ec.Scenario, ec, c.OverlapRuns, c.LostRuns, c.Seeds)
		}
		if (ec.Overlap.Runs > 0) != (ec.Overlap.First > 0) || ec.Overlap.First > uint64(c.Seeds) {
			t.Errorf("%s/%s: overlap in %d seeds, first seed %d", ec.Pattern, ec.Scenario, ec.Overlap.Runs, ec.Overlap.First)
		}
		if ec.Pattern == "fenced" && ec.LostNoFence == nil {
			t.Errorf("fenced: no lost-updates count with the tokens withheld")
		}
	}
	if c := m.Cell("basic", "gc-pause"); c.OverlapRuns == 0 || c.Overlaps < c.OverlapRuns {
		t.Errorf("basic under gc-pause overlapped in no seed of 4: the test shows nothing")
	}
}

func scenarioBuiltin(name string) (scenario.Builtin, error) {
	for _, b := range scenario.Builtins() {
		if b.Name == name {
			return b, nil
		}
	}
	_, err := scenario.Lookup(name, 1)
	return scenario.Builtin{}, err
}

// TestFIFOFamilyIsTheRegistrys: the patterns the registry marks FIFO (the
// fair lock, fenced or not, and the seed's fair lock that imitates it).
func TestFIFOFamilyIsTheRegistrys(t *testing.T) {
	want := []string{"fair", "fair-fenced", "fair-clock-queue"}
	if got := FIFO(); !slices.Equal(got, want) {
		t.Errorf("FIFO() = %q, want %q", got, want)
	}
}

// TestEveryDecisionJudgesTheSameEvidence: once Build has the production
// grid, Decide (which the article table's "chosen for" reads) answers from
// it as the decision table does, not from the built-in grid alone.
func TestEveryDecisionJudgesTheSameEvidence(t *testing.T) {
	m := synth(synthPatterns, []string{"gc-pause", "delayed-reply", Baseline}, 20, func(c *Cell) {
		if c.Pattern != "fenced" && c.Scenario == "gc-pause" {
			c.OverlapRuns, c.LostRuns = 9, 9
		}
	})
	prod := synth(synthPatterns, []string{"fsync-always"}, 10, func(c *Cell) {
		if c.Pattern == "fenced" {
			c.OverlapRuns, c.LostRuns = 3, 3
			c.FirstOf = map[string]uint64{FindingOverlap: 4, FindingLost: 4}
		}
	})
	before := Decide(m)[1].Answer // the payment job: fenced, clean without the production grid
	Build(m, nil, Options{Production: prod})
	after := Decide(m)[1].Answer
	want := decide(Evidence(m, prod, nil, Options{}))[1].Answer
	if !slices.Equal(before.Use, []string{"fenced"}) || !slices.Equal(after.Use, want.Use) || slices.Equal(before.Use, after.Use) {
		t.Errorf("payment job: use %q before Build, %q after, want %q (fenced loses under fsync-always)", before.Use, after.Use, want.Use)
	}
}
