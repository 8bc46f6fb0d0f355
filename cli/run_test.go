package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/history"
)

func TestRunExitCodes(t *testing.T) {
	tests := []struct {
		args []string
		want int
		out  string // a line the output must contain
	}{
		{[]string{"run", "--pattern", "basic", "--scenario", "gc-pause", "--seed", "1"}, exitViolation, "VIOLATED: mutex"},
		{[]string{"run", "--pattern", "fenced", "--scenario", "gc-pause", "--seed", "1"}, exitOK, "ok: no claim violated"},
		{[]string{"run", "--pattern", "basic", "--scenario", "steady", "--seed", "3"}, exitOK, "ok: no claim violated"},
		{[]string{"run", "--pattern", "watchdog-zombie-renewal", "--scenario", "slow-work", "--seed", "1"}, exitViolation, "VIOLATED: progress"},
		{[]string{"run", "--pattern", "watchdog", "--scenario", "slow-work", "--seed", "1"}, exitOK, "stalls 0"},
		{[]string{"run", "--pattern", "nope", "--scenario", "gc-pause"}, exitUsage, ""},
		{[]string{"run", "--pattern", "basic", "--scenario", "no-such-scenario"}, exitUsage, ""},
		{[]string{"run", "--scenario", "gc-pause"}, exitUsage, ""},
		{[]string{"run", "--pattern", "basic", "--scenario", "gc-pause", "--seed", "x"}, exitUsage, ""},
	}
	for _, tt := range tests {
		out, _, err := runCLI(t, tt.args...)
		if got := exitCode(err); got != tt.want {
			t.Errorf("locksim %s: exit %d (err %v), want %d", strings.Join(tt.args, " "), got, err, tt.want)
		}
		if tt.out != "" && !strings.Contains(out, tt.out) {
			t.Errorf("locksim %s: output lacks %q:\n%s", strings.Join(tt.args, " "), tt.out, out)
		}
		if tt.want != exitViolation {
			continue
		}
		if replay := "replay    locksim run --pattern " + tt.args[2] + " --scenario " + tt.args[4] + " --seed 1"; !strings.Contains(out, replay) {
			t.Errorf("violating run prints no replay command:\n%s", out)
		}
	}
}

func TestRunUsageErrorNamesTheFlag(t *testing.T) {
	_, _, err := runCLI(t, "run", "--pattern", "nope", "--scenario", "gc-pause")
	if err == nil || !strings.Contains(err.Error(), "--pattern") || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("bad --pattern: error %v, want it to name --pattern and the value", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("start nodes=1 clients=2 ttl=100ms\npause c1 for=banana\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runCLI(t, "run", "--pattern", "basic", "--scenario", bad)
	if exitCode(err) != exitUsage || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("malformed scenario file: exit %d, error %v; want exit 2 naming line 2", exitCode(err), err)
	}
}

// A scenario printed with --show-scenario replays to the same verdict.
func TestRunScenarioFileReplays(t *testing.T) {
	text, _, err := runCLI(t, "run", "--pattern", "basic", "--scenario", "gc-pause", "--show-scenario")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "gc.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	builtin, _, err1 := runCLI(t, "run", "--pattern", "basic", "--scenario", "gc-pause", "--seed", "1", "--json")
	file, _, err2 := runCLI(t, "run", "--pattern", "basic", "--scenario", path, "--seed", "1", "--json")
	if exitCode(err1) != exitViolation || exitCode(err2) != exitViolation {
		t.Fatalf("exits %d and %d, want both %d", exitCode(err1), exitCode(err2), exitViolation)
	}
	var a, b map[string]any
	if err := json.Unmarshal([]byte(builtin), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(file), &b); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"scenario", "explore"} { // the scenario's name, and the argument explore takes
		delete(a, k)
		delete(b, k)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Errorf("replay from file differs from the built-in:\n%s\n%s", ja, jb)
	}
}

func TestRunWritesHistoryAndIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	var outs [2]string
	for i := range outs {
		h := filepath.Join(dir, "h.json")
		out, _, err := runCLI(t, "run", "--pattern", "redlock", "--scenario", "node-clock-jump", "--seed", "5", "--json", "--history", h)
		if c := exitCode(err); c == exitUsage {
			t.Fatalf("run: %v", err)
		}
		f, err := os.Open(h)
		if err != nil {
			t.Fatal(err)
		}
		hist, err := history.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("--history wrote an unreadable history: %v", err)
		}
		if len(hist.Ops) == 0 || hist.Pattern != "redlock" {
			t.Errorf("history: %d ops, pattern %q; want ops of redlock", len(hist.Ops), hist.Pattern)
		}
		outs[i] = out
	}
	if outs[0] != outs[1] {
		t.Errorf("same seed, different JSON:\n%s\n%s", outs[0], outs[1])
	}
}
