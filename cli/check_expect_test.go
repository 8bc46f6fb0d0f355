package cli

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ourPause is a team's own scenario, with its own lock settings.
const ourPause = `scenario our-pause
start clients=2 duration=2s
pattern ttl=200ms
pause c1 on=write for=300ms
`

// writeExpect writes pause.txt and an expectations file naming it by a
// relative path into a fresh directory, and moves the test to another
// directory, so that nothing resolves against the working directory.
func writeExpect(t *testing.T, lines string) (expect, scenario string) {
	t.Helper()
	dir := t.TempDir()
	scenario = filepath.Join(dir, "pause.txt")
	expect = filepath.Join(dir, "locks.txt")
	for path, text := range map[string]string{scenario: ourPause, expect: lines} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(t.TempDir())
	return expect, scenario
}

// TestCheckExpectPassesAsTheFileSays: three lines, one scenario file of our
// own: the gate passes, from another directory; unlisted claims of these
// cells (fenced under gc-pause, and progress and loss-signal in every
// cell) hold.
func TestCheckExpectPassesAsTheFileSays(t *testing.T) {
	expect, _ := writeExpect(t, `basic  pause.txt  breaks mutex              # our 300ms pause outlasts our 200ms TTL
fenced pause.txt  holds  safe-store,fencing  # the store rejects the paused holder's write
basic  gc-pause   breaks mutex
`)
	out, _, err := runCLI(t, "check", "--expect", expect, "--seeds", "3")
	if err != nil {
		t.Fatalf("check --expect: %v\n%s", err, out)
	}
	for _, want := range []string{"basic    our-pause  breaks  mutex", "fenced   gc-pause   holds   safe-store", "check: ok: 14 checks"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestCheckExpectFailsAsTheFileSays: a line the runs contradict fails the
// gate (exit 1); its replay command names the scenario file by its
// absolute path and reproduces the violation from yet another directory.
func TestCheckExpectFailsAsTheFileSays(t *testing.T) {
	expect, scenario := writeExpect(t, `basic  pause.txt  holds  mutex   # wrong: the pause outlasts the TTL
fenced pause.txt  holds  fencing
fenced gc-pause   holds  fencing
`)
	args := []string{"check", "--expect", expect, "--seeds", "3"}
	out, _, err := runCLI(t, args...)
	var ve violationError
	if !errors.As(err, &ve) || run(args) != exitViolation {
		t.Fatalf("check --expect with a wrong line: %v, want a failed gate (exit 1)\n%s", err, out)
	}
	if !strings.Contains(out, "DEVIATION "+expect+":1: basic under our-pause holds mutex") {
		t.Errorf("output lacks the deviation of line 1:\n%s", out)
	}
	replay := regexp.MustCompile(`replay:   locksim (run --pattern basic --scenario (\S+) --seed (\d+))`).FindStringSubmatch(out)
	if replay == nil || replay[2] != scenario {
		t.Fatalf("no replay naming %s:\n%s", scenario, out)
	}
	t.Chdir(t.TempDir())
	if code := run(strings.Fields(replay[1])); code != exitViolation {
		t.Errorf("locksim %s from another directory: exit %d, want %d (the violation again)", replay[1], code, exitViolation)
	}
}

// TestCheckExpectSelects: --unlisted skip checks only the lines, --pattern
// and --scenario keep some of the checks the whole file makes; a
// selection of the embedded matrix asks nothing of the rest of it.
func TestCheckExpectSelects(t *testing.T) {
	expect, scenario := writeExpect(t, `basic  pause.txt  breaks mutex
fenced pause.txt  holds  fencing
basic  gc-pause   breaks mutex
`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--expect", expect, "--unlisted", "skip"}, "check: ok: 3 checks"},
		// fenced's checks of the whole file: under our-pause fencing, and safe-store, progress and
		// loss-signal unlisted; under gc-pause (a scenario the file names) all four unlisted.
		{[]string{"--expect", expect, "--pattern", "fenced"}, "check: ok: 8 checks"},
		{[]string{"--expect", expect, "--scenario", scenario, "--unlisted", "skip"}, "check: ok: 2 checks"},
		{[]string{"--pattern", "fenced", "--scenario", "gc-pause"}, "check: ok: 4 checks"},
	} {
		out, _, err := runCLI(t, append([]string{"check", "--seeds", "2"}, tc.args...)...)
		if err != nil || !strings.Contains(out, tc.want) {
			t.Errorf("check %v: %v, want %q:\n%s", tc.args, err, tc.want, out)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--expect", expect, "--unlisted", "maybe"}, `--unlisted "maybe"`},
		{[]string{"--expect", expect, "--pattern", "no-such"}, `unknown pattern "no-such"`},
		{[]string{"--expect", expect, "--scenario", "slow-work"}, `scenario "slow-work": no line of`},
	} {
		args := append([]string{"check"}, tc.args...)
		if _, _, err := runCLI(t, args...); err == nil || !strings.Contains(err.Error(), tc.want) || run(args) != exitUsage {
			t.Errorf("check %v: %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
}
