package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInputRefused: input a new user gets wrong — a directory where a
// file is expected, a file that is not a program, a count past what the
// command can hold, a flag that only another mode reads or that the mode
// asked for ignores — is refused before any work with exit 2, naming what
// was wrong.
func TestBadInputRefused(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir("adir", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("notexec", []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("mine.txt", []byte("scenario gc-pause\nstart clients=2 duration=200ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	realRun := []string{"real", "--pattern", "basic", "--scenario", "gc-pause"}
	sweep := []string{"sweep", "--dimension", "pause", "--pattern", "basic"}
	for _, c := range []struct {
		want string
		args []string
	}{
		{"--expect adir: a directory, not an expectations file", []string{"check", "--expect", "adir"}},
		{"--print prints the embedded matrix and takes no other flag (--json given)", []string{"check", "--print", "--json"}},
		{"--print prints the embedded matrix and takes no other flag (--pattern given)", []string{"check", "--print", "--pattern", "basic"}},
		{"--seeds 20000: want at most 10000", append(sweep, "--seeds", "20000")},
		{"--parallel 5000: want 0 (4 per core) to 4096", append(sweep, "--parallel", "5000")},
		{"--client adir: a directory, not a program", append(realRun, "--client", "adir")},
		{"--client notexec: not executable", append(realRun, "--client", "notexec")},
		{"--sim-seeds is read only with --table", append(realRun, "--sim-seeds", "5")},
		{"--merge is read only with --table", append(realRun, "--merge")},
		{"--lib-client is read only with --table", append(realRun, "--lib-client", "notexec")},
		{"--pattern: basic given twice", []string{"explore", "--pattern", "basic,basic", "--scenario", "gc-pause", "--seeds", "1"}},
		{"--scenario: gc-pause given twice", []string{"explore", "--pattern", "basic", "--scenario", "gc-pause,gc-pause", "--seeds", "1"}},
		{"--scenario: mine.txt and gc-pause are both named gc-pause", []string{"explore", "--pattern", "basic", "--scenario", "mine.txt,gc-pause", "--seeds", "1"}},
		{"--pattern: basic given twice", append(sweep, "--pattern", "basic,basic", "--seeds", "1")},
	} {
		refused(t, c.want, nil, c.args...)
	}
}

// TestRealClientIsAPath: --client names a file, relative to the working
// directory like every other path, never a program looked up on PATH.
func TestRealClientIsAPath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("client", []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	argv, err := clientArgv("client")
	if err != nil || len(argv) != 1 || argv[0] != filepath.Join(dir, "client") {
		t.Errorf("clientArgv(%q) = %q, %v; want [%s]", "client", argv, err, filepath.Join(dir, "client"))
	}
}

// TestEmptyScenarioFileRefused: a scenario file without a directive is
// refused by every command that reads one, naming the file and what it
// lacks (it said "line 0: no start line").
func TestEmptyScenarioFileRefused(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("empty.txt", []byte("# nothing yet\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("expect.txt", []byte("basic empty.txt holds mutex\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "empty.txt: empty scenario file: no directive"
	for _, args := range [][]string{
		{"run", "--pattern", "basic", "--scenario", "empty.txt"},
		{"explore", "--pattern", "basic", "--scenario", "empty.txt", "--seeds", "1"},
		{"check", "--expect", "expect.txt", "--seeds", "1"},
		{"real", "--pattern", "basic", "--scenario", "empty.txt"},
	} {
		refused(t, want, nil, args...)
		if _, _, err := runCLI(t, args...); err != nil && strings.Contains(err.Error(), "line 0") {
			t.Errorf("locksim %s: %v, names line 0", strings.Join(args, " "), err)
		}
	}
}
