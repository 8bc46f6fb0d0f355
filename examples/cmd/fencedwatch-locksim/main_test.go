package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/childproc"
)

// TestCommands: the command, built and run from the module's root, knows
// fencedwatch and its broken twin beside the built-in patterns: it lists
// them, runs them (the twin's violation with its replay command) and
// gates them with an expectations file of ours.
func TestCommands(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "fencedwatch-locksim")
	if out, err := childproc.CombinedOutput(exec.Command("go", "build", "-o", bin, ".")); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	claimsHold := filepath.Join(t.TempDir(), "twin-holds.txt")
	if err := os.WriteFile(claimsHold, []byte("fencedwatch-clockfence client-clock-jump holds fencing  # wrongly: its tokens follow the clocks\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir("../..")
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"list"}, 0, []string{"\nfencedwatch ", "\nfencedwatch-clockfence ", "\nbasic "}},
		{[]string{"run", "--pattern", "fencedwatch", "--scenario", "gc-pause", "--seed", "1"}, 0, nil},
		{[]string{"run", "--pattern", "fencedwatch-clockfence", "--scenario", "client-clock-jump", "--seed", "1"}, 1,
			[]string{"violated fencing with seed 1", "replay: fencedwatch-locksim run --pattern fencedwatch-clockfence --scenario client-clock-jump --seed 1"}},
		{[]string{"check", "--expect", "fencedwatch/testdata/expect.txt", "--seeds", "2"}, 0, []string{"check: ok: 4 checks as expected"}},
		{[]string{"check", "--expect", claimsHold, "--seeds", "2"}, 1, []string{"fencedwatch-clockfence", "client-clock-jump", "fencedwatch-locksim run --pattern fencedwatch-clockfence"}},
		{[]string{"run", "--pattern", "no-such", "--scenario", "gc-pause"}, 2, []string{"unknown pattern"}},
	} {
		out, err := childproc.CombinedOutput(exec.Command(bin, tc.args...))
		if code := exitCode(t, err); code != tc.code {
			t.Errorf("fencedwatch-locksim %s: exit %d, want %d\n%s", strings.Join(tc.args, " "), code, tc.code, out)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("fencedwatch-locksim %s: output lacks %q:\n%s", strings.Join(tc.args, " "), w, out)
			}
		}
	}
}

// TestReplayRunsFromTheModule: the replay command a violation prints
// names this binary, not locksim (which does not know the pattern), and
// run as printed, from the module's root with the binary on PATH, it
// reproduces the violation.
func TestReplayRunsFromTheModule(t *testing.T) {
	dir := t.TempDir()
	if out, err := childproc.CombinedOutput(exec.Command("go", "build", "-o", filepath.Join(dir, "fencedwatch-locksim"), ".")); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Chdir("../..")
	out, _ := childproc.CombinedOutput(exec.Command("fencedwatch-locksim", "run", "--pattern", "fencedwatch-clockfence", "--scenario", "client-clock-jump", "--seed", "1"))
	_, replay, ok := strings.Cut(string(out), "replay: ")
	if !ok {
		t.Fatalf("no replay command in:\n%s", out)
	}
	replay, _, _ = strings.Cut(replay, "\n")
	args := strings.Fields(replay)
	if args[0] != "fencedwatch-locksim" {
		t.Fatalf("replay %q names %s, want this binary", replay, args[0])
	}
	rerun := exec.Command(args[0], args[1:]...)
	rerun.Dir = t.TempDir() // the replay writes its trace where it runs
	again, err := childproc.CombinedOutput(rerun)
	if code := exitCode(t, err); code != 1 || !strings.Contains(string(again), "violated fencing with seed 1") {
		t.Errorf("%s: exit %d, want 1 with the same violation:\n%s", replay, code, again)
	}
}

// exitCode is the status of a process that ended with err.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// TestReportAndRealRun: the same binary puts fencedwatch in a report
// beside a built-in (its rows in the tables and the advice's evidence)
// and runs it on real redis-servers, each client process this binary
// again, its pattern registered there too.
func TestReportAndRealRun(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "fencedwatch-locksim")
	if out, err := childproc.CombinedOutput(exec.Command("go", "build", "-o", bin, ".")); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, bench := t.TempDir(), t.TempDir()
	msg, err := childproc.CombinedOutput(exec.Command(bin, "report", "--patterns", "fencedwatch,fenced", "--seeds", "5",
		"--bench", bench, "--out", out, "--commit=false"))
	if err != nil {
		t.Fatalf("report: %v\n%s", err, msg)
	}
	md, err := os.ReadFile(filepath.Join(out, "claims.md"))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := os.ReadFile(filepath.Join(out, "evidence.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| fencedwatch | safe-store, fencing |") || !strings.Contains(string(ev), `"pattern":"fencedwatch"`) {
		t.Errorf("the report does not show fencedwatch beside fenced:\n%s", md)
	}
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("redis-server is not installed; CI installs it")
		}
		t.Skip("redis-server not installed")
	}
	msg, err = childproc.CombinedOutput(exec.Command(bin, "real", "--pattern", "fencedwatch", "--scenario", "gc-pause", "--runs", "2"))
	if code := exitCode(t, err); code != 0 || !strings.Contains(string(msg), "real: fencedwatch under gc-pause, seed 2:") {
		t.Errorf("real: exit %d, want 0 with both runs' verdicts:\n%s", code, msg)
	}
}
