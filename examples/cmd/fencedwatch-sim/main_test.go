package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestCommands: each command runs from the module's root as documented.
func TestCommands(t *testing.T) {
	t.Chdir("../..")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", "-scenario", "gc-pause", "-seed", "1"}, exitOK, "fencedwatch under gc-pause, seed 1: ok"},
		{[]string{"run", "-scenario", "node-restart-without-persistence"}, exitViolation, "VIOLATED [safe-store fencing]"},
		{[]string{"run", "-scenario", "fencedwatch/testdata/long-pause.txt"}, exitOK, "fencedwatch under long-pause, seed 1: ok"},
		{[]string{"explore", "-seeds", "1"}, exitOK, "client-clock-jump                 fencedwatch-clockfence  1     0                  1"},
		{[]string{"check", "-seeds", "2"}, exitOK, "fencedwatch: 24 runs under 12 scenarios: as expected"},
		{[]string{"run", "-scenario", "no-such"}, exitUsage, ""},
		{[]string{"lint"}, exitUsage, ""},
	} {
		var out, errw bytes.Buffer
		if code := run(tc.args, &out, &errw); code != tc.code || !strings.Contains(out.String(), tc.want) {
			t.Errorf("fencedwatch-sim %v: exit %d, want %d; output lacks %q:\n%s%s", tc.args, code, tc.code, tc.want, out.String(), errw.String())
		}
	}
}
