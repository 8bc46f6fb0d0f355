package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/locks"
)

// refusedScenarios are scenario files the pattern's constructor refuses
// (the scenario format accepts them), with what the error must name.
var refusedScenarios = []struct {
	pattern, name, text, want string
}{
	{"basic", "ttl1.txt", "start nodes=1 clients=2 ttl=1ms duration=200ms\n", "TTL (1ms)"},
	{"watchdog", "drift.txt", "start clients=2 duration=200ms\npattern drift=0.6\n", "DriftFactor (0.6)"},
	{"redlock", "wait.txt", "start clients=2 duration=200ms\npattern wait-replicas=1\n", "WaitReplicas (1)"},
	{"basic", "nodes3.txt", "start nodes=3 clients=2 duration=200ms\n", "exactly 1 node, got 3"},
}

// TestRefusedSettingsAreBadUsage: lock settings the pattern refuses are
// bad usage (exit 2) in every command that simulates or runs them for
// real, refused before any run, naming the input, the field and the
// value; nothing is written.
func TestRefusedSettingsAreBadUsage(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, c := range refusedScenarios {
		if err := os.WriteFile(c.name, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		expect := "e-" + c.name
		if err := os.WriteFile(expect, []byte(c.pattern+" "+c.name+" holds mutex\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		trace := filepath.Join(dir, "trace-"+c.name)
		for _, args := range [][]string{
			{"run", "--pattern", c.pattern, "--scenario", c.name, "--trace", trace},
			{"explore", "--pattern", c.pattern, "--scenario", c.name, "--seeds", "3", "--out", trace},
			{"sweep", "--dimension", "pause", "--pattern", c.pattern, "--base", c.name, "--seeds", "2"},
			{"real", "--pattern", c.pattern, "--scenario", c.name},
		} {
			refused(t, c.want, []string{trace}, args...)
			_, _, err := runCLI(t, args...)
			if !strings.Contains(errString(err), c.name) {
				t.Errorf("locksim %s: %v, want the error to name the input %s", strings.Join(args, " "), err, c.name)
			}
		}
		_, stderr, err := runCLI(t, "check", "--expect", expect, "--seeds", "3")
		if code := exitCode(err); code != exitUsage || !strings.Contains(errString(err), c.want) || !strings.Contains(errString(err), expect+":1") {
			t.Errorf("check --expect %s: exit %d, %v; want exit 2 naming line %s:1 and %q\n%s", expect, code, err, expect, c.want, stderr)
		}
	}
}

// The *locks.OptionError stays in the chain, for callers that want its
// field.
func TestRefusedSettingsKeepTheOptionError(t *testing.T) {
	path := writeFile(t, "ttl1.txt", refusedScenarios[0].text)
	_, _, err := runCLI(t, "run", "--pattern", "basic", "--scenario", path)
	var oe *locks.OptionError
	if !errors.As(err, &oe) || oe.Field != "TTL" {
		t.Errorf("run under a 1ms TTL: %v, want a *locks.OptionError for TTL in the chain", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
