package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/gate"
)

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCheckFailsOnWrongExpectation(t *testing.T) {
	path := writeFile(t, "wrong.txt", `fenced gc-pause holds safe-store
basic gc-pause holds mutex   # wrong: basic has no fencing
`)
	args := []string{"check", "--expect", path, "--seeds", "5"}
	out, _, err := runCLI(t, args...)
	var ve violationError
	if !errors.As(err, &ve) {
		t.Fatalf("check with a wrong expectation: error %v, want a failed gate (exit 1)\n%s", err, out)
	}
	for _, want := range []string{
		"DEVIATION " + path + ":2: basic under gc-pause holds mutex",
		"expected: no run of seeds 1..5 breaks mutex",
		"seen:     ",
		"replay:   locksim run --pattern basic --scenario gc-pause --seed ",
		"check: FAILED",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, path+":1:") {
		t.Errorf("line 1 (fenced holds safe-store under gc-pause) deviated:\n%s", out)
	}
	if code := run(args); code != exitViolation {
		t.Errorf("exit %d, want %d", code, exitViolation)
	}
}

func TestCheckJSON(t *testing.T) {
	path := writeFile(t, "one.txt", "basic gc-pause breaks mutex # no fencing\n")
	out, _, err := runCLI(t, "check", "--expect", path, "--seeds", "3", "--json")
	if err != nil { // a file of one line is a partial matrix: nothing else is asked
		t.Fatalf("check --json: error %v, want a passing gate", err)
	}
	var res gate.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("check --json is not JSON: %v\n%s", err, out)
	}
	// the line's check, and basic's unlisted progress and loss-signal
	// claims, which hold (a pause is not charged to the loss signal)
	if len(res.Checks) != 3 || !res.Checks[0].OK || res.Checks[0].Broke == 0 || res.Runs != 3 ||
		res.Checks[1].Claim != "progress" || !res.Checks[1].OK || res.Checks[2].Claim != "loss-signal" || !res.Checks[2].OK {
		t.Errorf("check --json: checks %+v, runs %d; want a passing check that saw mutex broken, progress and loss-signal held, 3 runs", res.Checks, res.Runs)
	}
}

func TestCheckBadUsage(t *testing.T) {
	bad := writeFile(t, "bad.txt", "basic gc-pause breaks mutex # fine\nbasic gc-pause holds fencing\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--expect", bad}, "--expect: " + bad + `:2: claim "fencing": basic claims mutex`},
		{[]string{"check", "--expect", filepath.Join(t.TempDir(), "none.txt")}, "none.txt: no such file"},
		{[]string{"check", "--seeds", "0"}, "--seeds 0"},
		{[]string{"check", "--parallel", "-1"}, "--parallel -1"},
		{[]string{"check", "extra"}, "unknown command"},
	} {
		_, _, err := runCLI(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("locksim %s: error %v, want one containing %q", strings.Join(tc.args, " "), err, tc.want)
		}
		if code := run(tc.args); code != exitUsage {
			t.Errorf("locksim %s: exit %d, want %d", strings.Join(tc.args, " "), code, exitUsage)
		}
	}
}

func TestCheckPrintsTheMatrix(t *testing.T) {
	out, _, err := runCLI(t, "check", "--print")
	if err != nil {
		t.Fatal(err)
	}
	if out != gate.DefaultText() || !strings.Contains(out, "variant basic-del of basic") {
		t.Errorf("check --print does not print the embedded matrix:\n%s", out)
	}
}
