package benchcmd

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/bench"
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
	// every file written is one CheckReportDir checks, and a directory of
	// bench's own report takes the next one
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !slices.Contains(bench.ReportFiles([]bench.KeyMode{bench.Distinct}), e.Name()) {
			t.Errorf("bench wrote %s, which bench.ReportFiles does not list", e.Name())
		}
	}
	cmd = New(nil, "")
	cmd.SetArgs([]string{"--clients", "1", "--keys", "distinct", "--families", "single", "--subjects", "basic",
		"--duration", "40ms", "--warmup", "10ms", "--reps", "1", "--quiet", "--out", dir})
	cmd.SetOut(new(bytes.Buffer))
	cmd.SetErr(new(bytes.Buffer))
	if err := cmd.Execute(); err != nil {
		t.Errorf("bench again into its own report's directory: %v", err)
	}
}

// TestOutRefusedBeforeMeasuring: an --out that cannot take the report — a
// file, a directory under a missing parent, one that cannot be created, one
// whose README.md bench did not write, one where an output's name is a
// directory — is bad usage naming the flag and the path, found before any
// server is reached (the server given here does not exist: reaching it
// would fail otherwise), and nothing in it is changed.
func TestOutRefusedBeforeMeasuring(t *testing.T) {
	tmp := t.TempDir()
	afile := filepath.Join(tmp, "afile")
	theirs := filepath.Join(tmp, "theirs")
	clash := filepath.Join(tmp, "clash")
	for _, p := range []string{theirs, filepath.Join(clash, "results.json")} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	readme := filepath.Join(theirs, "README.md")
	for path, text := range map[string]string{afile: "mine\n", readme: "# Our project\n"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ out, want string }{
		{afile, "--out " + afile + ": not writable: it is a file"},
		{filepath.Join(tmp, "missing", "report"), "--out " + filepath.Join(tmp, "missing", "report") + ": not writable: its parent"},
		{"/proc/locksim-bench", "--out /proc/locksim-bench: not writable"},
		{theirs, "--out " + theirs + ": " + readme + " was not written by locksim bench"},
		{clash, "--out " + clash + ": " + filepath.Join(clash, "results.json") + " is a directory"},
	} {
		var stdout, stderr bytes.Buffer
		cmd := New(nil, "")
		cmd.SetArgs([]string{"--redis", "127.0.0.1:1", "--clients", "1", "--keys", "distinct", "--families", "single",
			"--duration", "10ms", "--warmup", "1ms", "--reps", "1", "--quiet", "--out", tc.out})
		cmd.SetOut(&stdout)
		cmd.SetErr(&stderr)
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		if err := cmd.Execute(); !IsUsage(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("bench --out %s = %v, want a usage error containing %q", tc.out, err, tc.want)
		}
	}
	if data, err := os.ReadFile(readme); err != nil || string(data) != "# Our project\n" {
		t.Errorf("%s after a refused bench: %q, %v; want it untouched", readme, data, err)
	}
	if entries, _ := os.ReadDir(theirs); len(entries) != 1 {
		t.Errorf("a refused bench wrote into %s: %d entries", theirs, len(entries))
	}
}

// TestReplotRedrawsFromResults: --replot redraws a sweep's plots from its
// results.json and measures nothing; a directory without one, or with a
// file that is not a bench result, is bad usage naming it.
func TestReplotRedrawsFromResults(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	cmd := New(nil, "")
	cmd.SetArgs([]string{"--clients", "1", "--keys", "distinct", "--families", "single", "--subjects", "basic",
		"--duration", "40ms", "--warmup", "10ms", "--reps", "1", "--quiet", "--out", dir})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	png := filepath.Join(dir, "throughput-distinct.png")
	if err := os.Remove(png); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd = New(nil, "")
	cmd.SetArgs([]string{"--replot", dir})
	cmd.SetOut(&out)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("--replot: %v", err)
	}
	if _, err := os.Stat(png); err != nil || !strings.Contains(out.String(), "redrew the plots") {
		t.Errorf("--replot: %s, %q; want the plot drawn again", err, out.String())
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "results.json"), []byte(`{"format":"x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{t.TempDir(), bad} {
		cmd = New(nil, "")
		cmd.SetArgs([]string{"--replot", d})
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		var ue UsageError
		if err := cmd.Execute(); !errors.As(err, &ue) || !strings.Contains(err.Error(), d) {
			t.Errorf("--replot %s: %v, want a usage error naming it", d, err)
		}
	}
}
