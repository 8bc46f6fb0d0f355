package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/locksim/locksim/internal/advise"
)

const adviseFlags = "--double-run store-checks-tokens --topology single-fsync-always --pauses none --work bounded --clocks stable --access exclusive"

// writeEvidence writes a small evidence file: basic overlaps and loses
// updates under gc-pause, fenced only overlaps.
func writeEvidence(t *testing.T) string {
	t.Helper()
	e := &advise.Evidence{Format: advise.FormatEvidence, Commit: "abc", Seeds: 20, Patterns: []advise.Pattern{{Name: "basic", Nodes: 1}, {Name: "fenced", Nodes: 1, Tokens: true}}}
	for _, p := range []string{"basic", "fenced"} {
		for _, s := range []string{"delayed-reply", "partition", "wrong-owner-release", "fsync-always", "gc-pause"} {
			c := advise.Cell{Pattern: p, Scenario: s, Seeds: 20}
			if s == "delayed-reply" {
				c.Overlap = advise.Count{Runs: 5, First: 2}
				if p == "basic" {
					c.Lost = advise.Count{Runs: 5, First: 2}
				}
			}
			e.Cells = append(e.Cells, c)
		}
	}
	f := filepath.Join(t.TempDir(), "evidence.json")
	w, err := os.Create(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Write(w); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return f
}

func TestAdviseJSON(t *testing.T) {
	ev := writeEvidence(t)
	args := append([]string{"advise", "--evidence", ev, "--json"}, strings.Fields(adviseFlags)...)
	out, _, err := runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	again, _, _ := runCLI(t, args...)
	if out != again {
		t.Errorf("two calls printed different bytes")
	}
	var a advise.Answer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if a.Format != advise.FormatAnswer || len(a.Use) != 1 || a.Use[0] != "fenced" || !a.Settings["fenced"].StoreTokenCheck {
		t.Errorf("answer %+v; want fenced with the store checking tokens", a)
	}
	if a.RunnerUp == nil || a.RunnerUp.Pattern != "basic" || !strings.Contains(a.RunnerUp.Why, "5/20") {
		t.Errorf("runner-up %+v; want basic, 5/20 lost under delayed-reply", a.RunnerUp)
	}
	text, _, err := runCLI(t, append([]string{"advise", "--evidence", ev}, strings.Fields(adviseFlags)...)...)
	if err != nil || !strings.Contains(text, "use: fenced") || !strings.Contains(text, "may still run twice") {
		t.Errorf("advise text (%v):\n%s", err, text)
	}
}

func TestAdviseRefuses(t *testing.T) {
	ev := writeEvidence(t)
	bad := writeFile(t, "bad.json", `{"format": "nope"}`)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--evidence", ev, "--double-run", "harmless"}, exitUsage, "--topology is missing"},
		{append([]string{"--evidence", ev, "--topology", "independent:4"}, strings.Fields(adviseFlags)[:2]...), exitUsage, "odd"},
		{append([]string{"--evidence", filepath.Join(t.TempDir(), "none.json")}, strings.Fields(adviseFlags)...), exitUsage, "--evidence"},
		{append([]string{"--evidence", bad}, strings.Fields(adviseFlags)...), exitUsage, "format"},
	} {
		_, _, err := runCLI(t, append([]string{"advise"}, c.args...)...)
		if exitCode(err) != c.code || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("advise %q = %v (exit %d), want exit %d with %q", c.args, err, exitCode(err), c.code, c.want)
		}
	}
	t.Chdir(t.TempDir()) // no reports/evidence.json here
	_, _, err := runCLI(t, append([]string{"advise"}, strings.Fields(adviseFlags)...)...)
	if exitCode(err) != exitRuntime || !strings.Contains(err.Error(), "no evidence at reports/evidence.json") {
		t.Errorf("advise without the default evidence = %v (exit %d), want exit 3 naming it", err, exitCode(err))
	}
}

// TestAdviseAsksOnATerminal: with stdin a terminal, advise asks for each
// flag left out, again after a value it refuses.
func TestAdviseAsksOnATerminal(t *testing.T) {
	old := stdinIsTerminal
	stdinIsTerminal = func(*cobra.Command) bool { return true }
	t.Cleanup(func() { stdinIsTerminal = old })
	ev := writeEvidence(t)
	root := newRoot()
	var out, errb strings.Builder
	root.SetIn(strings.NewReader("sometimes\nstore-checks-tokens\nexclusive\n"))
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs([]string{"advise", "--evidence", ev, "--topology", "single-fsync-always", "--pauses", "none", "--work", "bounded", "--clocks", "stable"})
	if err := root.Execute(); err != nil {
		t.Fatalf("advise: %v\n%s", err, errb.String())
	}
	if !strings.Contains(errb.String(), "(--double-run)") || !strings.Contains(errb.String(), "want one of") || !strings.Contains(errb.String(), "(--access)") {
		t.Errorf("questions asked:\n%s", errb.String())
	}
	if !strings.Contains(out.String(), "use: fenced") {
		t.Errorf("answer:\n%s", out.String())
	}
}
