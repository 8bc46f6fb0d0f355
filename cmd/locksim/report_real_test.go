package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	realDir := filepath.Join("..", "..", "reports", "real")
	if _, err := os.Stat(filepath.Join(realDir, "agreement.json")); err != nil {
		t.Fatalf("the committed real-mode data is missing: %v", err)
	}
	out := t.TempDir()
	md, err := tinyRealReport(t, out, realDir)
	if err != nil {
		t.Fatal(err)
	}
	// The committed cells were made by oracle 2 (eb2a57d); this build's
	// oracles are 3: every cell is shown stale, greyed with its reason,
	// and counted neither way.
	stale := "stale: the oracles changed since it was made (at commit eb2a57d)"
	for _, want := range []string{"0 of 0 fresh cells agree", "208 cell(s) are stale",
		"| basic | steady | _not counted by kind_ | _not counted by kind_ | _not counted by kind_ | _" + stale + "_ | _over any claim: simulator 0/20 (0%, 0–16%), real 3/5 (60%, 23–88%)_ |",
		"| redlock | failover-async-replication | _not counted by kind_ | _not counted by kind_ | _not counted by kind_ | _" + stale + "_ | _over any claim: simulator 7/20 (35%, 18–57%), real 1/5 (20%, 3.6–62%)_ |",
		"| library | delayed-reply | failover-async-replication |",
		"| redsync-1 | _safety 0/5 (" + stale + ")_ | _5/5 (100%, 57–100%) over any claim (" + stale + ")_ |",
		"- `client-clock-drift` (redsync-1, ",
		// The advice names it: a pattern is confirmed on real Redis only by fresh cells that agree.
		"basic: not confirmed on real redis-server; stale under gc-pause", "--real " + realDir,
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
