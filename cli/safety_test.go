package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const mineScenario = "start nodes=1 clients=2 ttl=100ms duration=1s\npause c1 on=write for=150ms\n"

// refused runs args, wants exit 2 with an error containing want, and
// every file in keep unchanged afterwards (missing ones still missing).
func refused(t *testing.T, want string, keep []string, args ...string) {
	t.Helper()
	before := map[string]string{}
	for _, f := range keep {
		data, err := os.ReadFile(f)
		if err == nil {
			before[f] = string(data)
		}
	}
	_, stderr, err := runCLI(t, args...)
	if code := exitCode(err); code != exitUsage || err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("locksim %s: exit %d, error %v; want exit 2 naming %q", strings.Join(args, " "), code, err, want)
	}
	if strings.Contains(stderr, "simulated") || strings.Contains(stderr, "runs (") {
		t.Errorf("locksim %s: work was done before refusing:\n%s", strings.Join(args, " "), stderr)
	}
	for _, f := range keep {
		data, err := os.ReadFile(f)
		old, existed := before[f]
		switch {
		case existed && (err != nil || string(data) != old):
			t.Errorf("locksim %s changed %s: now %q (err %v), was %q", strings.Join(args, " "), f, data, err, old)
		case !existed && err == nil:
			t.Errorf("locksim %s created %s", strings.Join(args, " "), f)
		}
	}
}

// TestNoInputIsAnOutput replays every way an output flag could overwrite
// an input or another output: each is refused before any work, and every
// file is left as it was.
func TestNoInputIsAnOutput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	mine := filepath.Join(dir, "mine.txt")
	if err := os.WriteFile(mine, []byte(mineScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(mine, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	run := []string{"run", "--pattern", "basic", "--scenario", "mine.txt"}
	for _, flag := range []string{"--trace", "--history", "--viz"} {
		refused(t, "is the input --scenario", []string{mine}, append(run, flag, "mine.txt")...)
		refused(t, "is the input --scenario", []string{mine}, append(run, flag, mine)...)
		refused(t, "is the input --scenario", []string{mine}, append(run, flag, "link.txt")...)
	}
	x := filepath.Join(dir, "x.json")
	refused(t, "--trace x.json and --history x.json", []string{x}, append(run, "--trace", "x.json", "--history", "x.json")...)
	refused(t, "--history x.json and --viz ./x.json", []string{x}, append(run, "--history", "x.json", "--viz", "./x.json")...)
	refused(t, "--out mine.txt is the input --scenario mine.txt", []string{mine},
		"explore", "--pattern", "basic", "--scenario", "gc-pause,mine.txt", "--seeds", "2", "--out", "mine.txt")

	var shards []string
	for _, sh := range []string{"0/2", "1/2"} {
		f := filepath.Join(dir, "s"+sh[:1]+".json")
		if _, _, err := runCLI(t, "explore", "--pattern", "basic", "--scenario", "gc-pause", "--seeds", "2", "--shard", sh, "--json", "--out", f); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, f)
	}
	refused(t, "--out "+shards[0]+" is the input shard 1", shards, "merge", "--out", shards[0], shards[0], shards[1])
}

// TestRunChecksEveryOutputFirst: an unwritable --viz is refused before
// the run, so the --history file given beside it keeps its old content.
func TestRunChecksEveryOutputFirst(t *testing.T) {
	dir := t.TempDir()
	h := filepath.Join(dir, "h.json")
	if err := os.WriteFile(h, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	refused(t, "--viz "+filepath.Join(dir, "no", "v.html"), []string{h},
		"run", "--pattern", "basic", "--scenario", "gc-pause", "--history", h, "--viz", filepath.Join(dir, "no", "v.html"))
	refused(t, "--out /proc/x", nil, "explore", "--pattern", "basic", "--scenario", "gc-pause", "--seeds", "2", "--out", "/proc/x")
	refused(t, "--out "+dir+": not writable: it is a directory", nil, "merge", "--out", dir, h)
	refused(t, "--trace - and --json both write to stdout", nil, "run", "--pattern", "basic", "--scenario", "gc-pause", "--trace", "-", "--json")
}

// TestOutputsAreWrittenByRename: a completed run replaces its outputs and
// leaves no temporary file beside them.
func TestOutputsAreWrittenByRename(t *testing.T) {
	dir := t.TempDir()
	trace, h := filepath.Join(dir, "trace.txt"), filepath.Join(dir, "h.json")
	for _, f := range []string{trace, h} {
		if err := os.WriteFile(f, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := runCLI(t, "run", "--pattern", "fenced", "--scenario", "gc-pause", "--trace", trace, "--history", h)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{trace, h} {
		data, err := os.ReadFile(f)
		st, _ := os.Stat(f)
		if err != nil || len(data) < 100 || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %d bytes, mode %v, err %v; want the new content with the old file's mode", f, len(data), st.Mode().Perm(), err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("files beside the outputs: %v", entries)
	}
}

func TestInputValidation(t *testing.T) {
	dir := t.TempDir()
	bom := filepath.Join(dir, "bom.txt")
	bin := filepath.Join(dir, "bin.txt")
	if err := os.WriteFile(bom, []byte("\ufeff"+mineScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "run", "--pattern", "basic", "--scenario", bom); exitCode(err) == exitUsage {
		t.Errorf("a scenario file with a UTF-8 byte order mark: %v", err)
	}
	missing := filepath.Join(dir, "missing.txt")
	huge := "9223372036854775807"
	for _, c := range []struct {
		want string
		args []string
	}{
		{"--scenario " + missing + ": no such file", []string{"run", "--pattern", "basic", "--scenario", missing}},
		{"--scenario " + missing + ": no such file", []string{"explore", "--pattern", "basic", "--scenario", missing}},
		{"not a text scenario file", []string{"run", "--pattern", "basic", "--scenario", bin}},
		{"not a text scenario file", []string{"explore", "--pattern", "basic", "--scenario", bin}},
		{"--seeds " + huge + ": want at most 1000000000", []string{"explore", "--pattern", "basic", "--scenario", "gc-pause", "--seeds", huge}},
		{"--seeds " + huge + ": want at most 1000000000", []string{"check", "--seeds", huge}},
		{"--seeds " + huge + ": want at most 10000", []string{"report", "--out", t.TempDir(), "--seeds", huge}},
		{"--baseline-seeds " + huge + ": want at most 10000", []string{"report", "--out", t.TempDir(), "--baseline-seeds", huge}},
		{"--parallel 100000: want at most 4096", []string{"explore", "--pattern", "basic", "--scenario", "gc-pause", "--parallel", "100000"}},
		{"--expect " + missing, []string{"check", "--expect", missing}},
	} {
		_, _, err := runCLI(t, c.args...)
		if exitCode(err) != exitUsage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("locksim %s: exit %d, %v; want exit 2 naming %q", strings.Join(c.args, " "), exitCode(err), err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), "ELF") || strings.Contains(err.Error(), "secret")) {
			t.Errorf("locksim %s: the error repeats the file's bytes: %q", strings.Join(c.args, " "), err)
		}
	}
}
