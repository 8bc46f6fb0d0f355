package report

import (
	"strings"
	"testing"
)

func agreementMarkdown(t *testing.T, a *Agreement) string {
	t.Helper()
	d := &Document{}
	agreement(d, Options{Agreement: a})
	var md strings.Builder
	if err := WriteMarkdown(&md, d); err != nil {
		t.Fatal(err)
	}
	return md.String()
}

// TestAgreementSection: the pattern cells with both rates and the verdict
// (a disagreement in bold), the libraries as a grid, the refused
// scenarios with their subjects, and the link to the notes.
func TestAgreementSection(t *testing.T) {
	a := &Agreement{Command: "locksim real --table reports/real/README.md", NotesLink: "real/NOTES.md", Cells: []AgreeCell{
		{Pattern: "basic", Scenario: "gc-pause", Sim: RealTally{Runs: 20, Violated: 18}, Real: RealTally{Runs: 5, Violated: 3}},
		{Pattern: "basic", Scenario: "steady", Sim: RealTally{Runs: 20}, Real: RealTally{Runs: 6, Violated: 2, Failed: 1}},
		{Pattern: "redsync-1", Scenario: "gc-pause", Real: RealTally{Runs: 5, Violated: 5}},
		{Pattern: "redsync-1", Scenario: "steady", Real: RealTally{Runs: 5}},
		{Pattern: "rueidislock", Scenario: "gc-pause", Real: RealTally{Runs: 5, Violated: 4}},
		{Pattern: "basic", Scenario: "failover-async-replication", Refused: "failover not built"},
		{Pattern: "redsync-1", Scenario: "failover-async-replication", Refused: "failover not built"},
	}}
	md := agreementMarkdown(t, a)
	for _, want := range []string{
		"1 of 2 fresh cells agree",
		"[NOTES.md](real/NOTES.md)",
		"`locksim real --table reports/real/README.md`",
		"| pattern | scenario | simulator | real | agree |",
		"| basic | gc-pause | 18/20 (90%, 70–97%) | 3/5 (60%, 23–88%) | yes |",
		"| basic | steady | 0/20 (0%, 0–16%) | 2/5 (40%, 12–77%), 1 client failure(s) | **no** |",
		"| library | gc-pause | steady |",
		"| redsync-1 | **5/5 (100%, 57–100%)** | 0/5 (0%, 0–43%) |",
		"| rueidislock | **4/5 (80%, 38–96%)** | not run |",
		"- `failover-async-replication` (basic, redsync-1): failover not built",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("section lacks %q:\n%s", want, md)
		}
	}
	if strings.Count(md, "| redsync-1 |") != 1 {
		t.Errorf("a library has a row in the agreement table too:\n%s", md)
	}
}

// TestStaleCellsNeverAgree: a stale cell is shown greyed with its reason,
// and counted neither as agreeing nor as disagreeing; a stale library
// cell says so too.
func TestStaleCellsNeverAgree(t *testing.T) {
	stale := "the lock code (its Go sources or scripts) changed since it was made (at commit abc1234)"
	a := &Agreement{Cells: []AgreeCell{
		{Pattern: "basic", Scenario: "gc-pause", Sim: RealTally{Runs: 20, Violated: 18}, Real: RealTally{Runs: 5, Violated: 3}},
		{Pattern: "fenced", Scenario: "gc-pause", Sim: RealTally{Runs: 20}, Real: RealTally{Runs: 5}, Stale: stale},
		{Pattern: "redsync-1", Scenario: "gc-pause", Real: RealTally{Runs: 5, Violated: 5}, Stale: stale},
	}}
	md := agreementMarkdown(t, a)
	for _, want := range []string{
		"1 of 1 fresh cells agree",
		"2 cell(s) are stale",
		"| fenced | gc-pause | _0/20 (0%, 0–16%)_ | _0/5 (0%, 0–43%)_ | _stale: " + stale + "_ |",
		"| redsync-1 | _5/5 (100%, 57–100%) (stale: " + stale + ")_ |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("section lacks %q:\n%s", want, md)
		}
	}
}

// TestAgreementSectionWithoutData: no data asked for, and data asked for
// but missing, each say so and show no table.
func TestAgreementSectionWithoutData(t *testing.T) {
	for name, c := range map[string]struct {
		a    *Agreement
		want string
	}{
		"not asked": {nil, "Not measured in this report"},
		"missing":   {&Agreement{Missing: "reports/real/agreement.json does not exist"}, "No agreement data: reports/real/agreement.json does not exist."},
	} {
		md := agreementMarkdown(t, c.a)
		if !strings.Contains(md, c.want) || strings.Contains(md, "| pattern |") {
			t.Errorf("%s: want %q and no table:\n%s", name, c.want, md)
		}
	}
}
