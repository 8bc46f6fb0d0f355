package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/realmode"
)

func tinyRealReport(t *testing.T, out, realDir string) (string, error) {
	t.Helper()
	_, _, err := runCLI(t, "report", "--seeds", "1", "--baseline-seeds", "1", "--sweep-seeds", "0", "--patterns", "basic",
		"--scenarios", "gc-pause", "--bench", t.TempDir(), "--out", out, "--commit=false", "--real", realDir)
	if err != nil {
		return "", err
	}
	return reportMarkdown(t, out), nil
}

// TestReportRealSection: --real with the committed real-mode data shows
// its agreement table, the libraries' rows, the refused scenarios and the
// link to the notes. (Its figures are those of the committed table: when
// reports/real is regenerated, they change with it.)
func TestReportRealSection(t *testing.T) {
	realDir := filepath.Join("..", "reports", "real")
	if _, err := os.Stat(filepath.Join(realDir, "agreement.json")); err != nil {
		t.Fatalf("the committed real-mode data is missing: %v", err)
	}
	out := t.TempDir()
	md, err := tinyRealReport(t, out, realDir)
	if err != nil {
		t.Fatal(err)
	}
	// The committed cells were made by this round's oracles: every cell
	// is fresh and counted, kind by kind.
	for _, want := range []string{"162 of 165 fresh cells agree on every kind",
		"| basic | steady | 0/20 · 0/5 | 0/20 · 0/5 | 0/20 · 0/5 | yes | 20 seeds · 5 real runs |",
		"| basic | node-restart-without-persistence | 19/20 · 2/5 | 0/20 · 0/5 | 19/20 · 3/5 | yes | 20 seeds · 5 real runs |",
		"| redlock | failover-async-replication | **7/20 · 0/5** | 0/20 · 0/5 | **7/20 · 0/5** | **no (safety, promptness)** | 20 seeds · 5 real runs |",
		"| library | delayed-reply | failover-async-replication |",
		"| redsync-1 | safety 0/5 | **safety 4/5** | **safety 5/5** | **safety 2/5** | **safety 2/5** | safety 0/5 | safety 0/5 | safety 0/5 | safety 0/5 |",
		"- `client-clock-drift` (redsync-1, ",
		// The advice names it: a pattern is confirmed on real Redis only by fresh cells that agree.
		"basic: confirmed on real redis-server under gc-pause (fresh cells that agree on every kind of claim)", "--real " + realDir,
		"[NOTES.md](" + filepath.ToSlash(filepath.Join(relTo(t, out, realDir), "NOTES.md")) + ")"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func relTo(t *testing.T, from, to string) string {
	t.Helper()
	a, _ := filepath.Abs(from)
	b, _ := filepath.Abs(to)
	r, err := filepath.Rel(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestReportRealMissingOrBad: a directory without agreement.json is said
// in the report; a malformed file or a missing directory exits 2 naming it.
func TestReportRealMissingOrBad(t *testing.T) {
	empty := t.TempDir()
	md, err := tinyRealReport(t, t.TempDir(), empty)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md, "No agreement data: "+filepath.ToSlash(filepath.Join(empty, "agreement.json"))+" does not exist") {
		t.Errorf("report does not say the agreement data is missing")
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "agreement.json"), []byte(`{"format":"other"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{bad: "agreement.json", filepath.Join(empty, "nope"): "--real"} {
		_, err := tinyRealReport(t, t.TempDir(), dir)
		if exitCode(err) != exitUsage || !strings.Contains(err.Error(), want) {
			t.Errorf("--real %s: exit %d, %v; want exit 2 naming %q", dir, exitCode(err), err, want)
		}
	}
}

// TestRerunCommand: a library cell's rerun names a reference client by
// its name alone and a Go library through the client program its table
// run named; a pattern's cell and a refused one have none.
func TestRerunCommand(t *testing.T) {
	f := realmode.AgreementFile{Command: "locksim real --table T", Sources: []realmode.Source{
		{Command: "locksim real --table T --libraries redsync-1 --lib-client /tmp/x/locksim-real-client"},
		{Command: "locksim real --table T --pattern node-redlock --libraries node-redlock"},
	}}
	for _, c := range []struct {
		cell realmode.Cell
		want string
	}{
		{realmode.Cell{Pattern: "redsync-1", Scenario: "gc-pause", Real: realmode.Tally{Runs: 5, Violated: 5}, Source: 0},
			"locksim real --client /tmp/x/locksim-real-client --pattern redsync-1 --scenario gc-pause --runs 5"},
		{realmode.Cell{Pattern: "node-redlock", Scenario: "gc-pause", Real: realmode.Tally{Runs: 5}, Source: 1},
			"locksim real --pattern node-redlock --scenario gc-pause --runs 5"},
		{realmode.Cell{Pattern: "basic", Scenario: "gc-pause", Sim: realmode.Tally{Runs: 20}, Real: realmode.Tally{Runs: 5}}, ""},
		{realmode.Cell{Pattern: "redislock", Scenario: "client-clock-drift", Refused: "keeps its own time"}, ""},
	} {
		if got := rerunCommand(f, c.cell); got != c.want {
			t.Errorf("rerunCommand(%s × %s) = %q, want %q", c.cell.Pattern, c.cell.Scenario, got, c.want)
		}
	}
}
