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

// TestAgreementSection: the pattern cells kind by kind with the verdict
// (a disagreement in bold, naming its kind), the libraries as a grid, the
// refused scenarios with their subjects, and the link to the notes.
func TestAgreementSection(t *testing.T) {
	a := &Agreement{Command: "locksim real --table reports/real/README.md", NotesLink: "real/NOTES.md", Cells: []AgreeCell{
		{Pattern: "basic", Scenario: "gc-pause", Sim: RealTally{Runs: 20, Violated: 18}, Real: RealTally{Runs: 5, Violated: 3},
			Kinds: []AgreeKind{{Kind: Safety, Sim: 18, Real: 3, State: "agree"}, {Kind: Promptness, Sim: 2, Real: 0, State: "disagree"}}},
		{Pattern: "fenced", Scenario: "gc-pause", Sim: RealTally{Runs: 20, Violated: 19}, Real: RealTally{Runs: 5, Violated: 4},
			Kinds: []AgreeKind{{Kind: Safety, State: "agree"}, {Kind: Promptness, Sim: 19, Real: 4, State: "agree"}}},
		{Pattern: "basic", Scenario: "steady", Sim: RealTally{Runs: 20}, Real: RealTally{Runs: 6, Violated: 2, Failed: 1}},
		{Pattern: "redsync-1", Scenario: "gc-pause", Real: RealTally{Runs: 5, Violated: 5}, Kinds: []AgreeKind{{Kind: Safety, Real: 5}}},
		{Pattern: "redsync-1", Scenario: "steady", Real: RealTally{Runs: 5}, Kinds: []AgreeKind{{Kind: Safety}}},
		{Pattern: "rueidislock", Scenario: "gc-pause", Real: RealTally{Runs: 5, Violated: 4}},
		{Pattern: "redislock", Scenario: "steady", Real: RealTally{Runs: 5}, Kinds: []AgreeKind{{Kind: Safety}}},
		{Pattern: "basic", Scenario: "failover-async-replication", Refused: "failover not built"},
		{Pattern: "redsync-1", Scenario: "failover-async-replication", Refused: "failover not built"},
		{Pattern: "redsync-1", Scenario: "client-clock-drift", Refused: "scenario client-clock-drift: drift (drift c1 at=0s rate=-40%): redsync-1 reads the wall clock"},
		{Pattern: "node-redlock", Scenario: "client-clock-drift", Refused: "scenario client-clock-drift: drift (drift c1 at=0s rate=-40%): node-redlock reads the wall clock"},
		{Pattern: "redislock", Scenario: "client-clock-jump", Refused: "scenario client-clock-jump: jump (jump c1 by=+500ms): redislock reads the wall clock"},
	}}
	md := agreementMarkdown(t, a)
	for _, want := range []string{
		"1 of 3 fresh cells agree on every kind",
		"[NOTES.md](real/NOTES.md)",
		"`locksim real --table reports/real/README.md`",
		"| pattern | scenario | safety | liveness | promptness | agree | runs |",
		"| basic | gc-pause | 18/20 · 3/5 | — | **2/20 · 0/5** | **no (promptness)** | 20 seeds · 5 real runs |",
		"| fenced | gc-pause | 0/20 · 0/5 | — | 19/20 · 4/5 | yes | 20 seeds · 5 real runs |",
		"| basic | steady | not counted by kind | not counted by kind | not counted by kind | **no (over any claim)** | over any claim: simulator 0/20 (0%, 0–16%), real 2/5 (40%, 12–77%), 1 client failure(s) |",
		"| library | gc-pause | steady |",
		"| redsync-1 | **safety 5/5** | safety 0/5 | [why](real/NOTES.md#broken-claims-and-their-mechanism); `locksim real --pattern redsync-1 --scenario gc-pause --runs 5` |",
		"| rueidislock | **4/5 (80%, 38–96%) over any claim** | not run | [why](real/NOTES.md#broken-claims-and-their-mechanism); `locksim real --pattern rueidislock --scenario gc-pause --runs 5` |",
		"| redislock | not run | safety 0/5 | – |",
		"- `failover-async-replication` (basic, redsync-1): failover not built",
		// A reason that differs by the subject's name alone is said once.
		"- `client-clock-drift` (redsync-1, node-redlock): drift (drift c1 at=0s rate=-40%): each reads the wall clock\n",
		"- `client-clock-jump` (redislock): jump (jump c1 by=+500ms): redislock reads the wall clock\n",
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
		"| fenced | gc-pause | _not counted by kind_ | _not counted by kind_ | _not counted by kind_ | _stale: " + stale + "_ |",
		"| redsync-1 | _5/5 (100%, 57–100%) over any claim (stale: " + stale + ")_ |",
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
