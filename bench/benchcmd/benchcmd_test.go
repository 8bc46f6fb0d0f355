package benchcmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBadFlagsAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--clients", "1,x"},
		{"--reps", "0"},
		{"--redis", "127.0.0.1:1", "--spawn", "1"},
		{"--nodes", ""},
	} {
		cmd := New(nil, "")
		cmd.SetArgs(args)
		cmd.SetOut(new(bytes.Buffer))
		cmd.SetErr(new(bytes.Buffer))
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		if err := cmd.Execute(); !IsUsage(err) {
			t.Errorf("bench %v = %v, want a usage error", args, err)
		}
	}
}

// TestTinyRun runs one very short cell on embedded Redis and checks what
// the command writes: the demo label and a table on stdout, the report
// files in --out.
func TestTinyRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	var stdout, stderr bytes.Buffer
	cmd := New(nil, "libraries not linked")
	cmd.SetArgs([]string{"--clients", "1", "--keys", "distinct", "--families", "single", "--subjects", "basic",
		"--duration", "40ms", "--warmup", "10ms", "--reps", "1", "--out", dir})
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("bench: %v\nstderr: %s", err, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"demo path", "cycles/s", "floor", "basic"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(stderr.String(), "libraries not linked") {
		t.Errorf("stderr lacks the library note: %s", stderr.String())
	}
	if strings.Contains(stderr.String(), "\r") || !strings.Contains(stderr.String(), "bench: 2/2 runs") {
		t.Errorf("progress off a terminal: %q, want plain lines (no carriage return) ending with bench: 2/2 runs", stderr.String())
	}
	for _, name := range []string{"results.csv", "results.json", "README.md", "throughput-distinct.png"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("report file %s: %v", name, err)
		}
	}
}
