package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSweepExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
		msg  string // the error must name it
	}{
		{[]string{"sweep", "--pattern", "basic"}, exitUsage, "--dimension"},
		{[]string{"sweep", "--dimension", "pause"}, exitUsage, "--pattern"},
		{[]string{"sweep", "--dimension", "gravity", "--pattern", "basic"}, exitUsage, `"gravity"`},
		{[]string{"sweep", "--dimension", "pause", "--pattern", "nope"}, exitUsage, `"nope"`},
		{[]string{"sweep", "--dimension", "pause", "--pattern", "basic", "--points", "1,x"}, exitUsage, `"x"`},
		{[]string{"sweep", "--dimension", "nodes", "--pattern", "basic"}, exitUsage, "several nodes"},
		{[]string{"sweep", "--dimension", "pause", "--pattern", "basic", "--seeds", "0"}, exitUsage, "--seeds"},
	} {
		_, _, err := runCLI(t, tc.args...)
		if got := exitCode(err); got != tc.want || err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("locksim %s: exit %d, error %v; want exit %d naming %s", strings.Join(tc.args, " "), got, err, tc.want, tc.msg)
		}
	}
}

// TestSweepWritesItsCurve runs a small sweep into a directory: the table
// on stdout, the plot and the Markdown in the directory, the same numbers
// twice.
func TestSweepWritesItsCurve(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "curves")
	args := []string{"sweep", "--dimension", "pause", "--pattern", "basic,fenced", "--points", "0.25,2", "--seeds", "3", "--out", dir}
	out, _, err := runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| basic | 0/3 (0%, 0–56%) † | **3/3 (100%, 44–100%)** |", "| fenced | 0/3"} {
		if !strings.Contains(out, want) {
			t.Errorf("sweep output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"sweep-pause.png", "sweep-pause.svg", "sweep-pause.md"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	again, _, err := runCLI(t, args...)
	if err != nil || again != out {
		t.Errorf("the same sweep twice differs (err %v)", err)
	}
}

// A file of the name a sweep writes that no sweep wrote is refused before
// the sweep runs (exit 2) and left as it was; a sweep's own files are
// replaced by the next sweep.
func TestSweepRefusesAUsersFileOfItsName(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "sweep-pause.md")
	put(t, mine, "my notes")
	args := []string{"sweep", "--dimension", "pause", "--pattern", "basic", "--points", "0.25", "--seeds", "1", "--out", dir}
	refused(t, "--out "+dir+": sweep-pause.md exists and no sweep wrote it", []string{mine, filepath.Join(dir, "sweep-pause.png")}, args...)
	if mustRead(t, mine) != "my notes" {
		t.Errorf("sweep replaced the user's %s", mine)
	}
	other := filepath.Join(t.TempDir(), "curves")
	args[len(args)-1] = other
	for range 2 {
		if _, _, err := runCLI(t, args...); err != nil {
			t.Fatalf("a sweep into %s (new, then its own files): %v", other, err)
		}
	}
	if m := mustRead(t, filepath.Join(other, sweepManifestName)); !strings.Contains(m, "sweep-pause.md\nsweep-pause.png\nsweep-pause.svg") {
		t.Errorf("%s lists:\n%s", sweepManifestName, m)
	}
}
