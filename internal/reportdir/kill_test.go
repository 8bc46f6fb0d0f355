package reportdir

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/locksim/locksim/childproc"
)

// childEnv, set for this test binary run as a child (writerCmd), makes
// it write one report and exit: "DIR PATTERNS FORCE KILL", killing
// itself (SIGKILL) before the KILL-th rename of the install (0: never).
const childEnv = "LOCKSIM_TEST_REPORTDIR_WRITE"

func TestMain(m *testing.M) {
	if spec, ok := os.LookupEnv(childEnv); ok {
		os.Exit(writeAsChild(spec))
	}
	os.Exit(m.Run())
}

func writeAsChild(spec string) int {
	f := strings.Fields(spec)
	if len(f) != 4 {
		fmt.Fprintf(os.Stderr, "%s=%q: want DIR PATTERNS FORCE KILL\n", childEnv, spec)
		return 2
	}
	k, err := strconv.Atoi(f[3])
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s=%q: %v\n", childEnv, spec, err)
		return 2
	}
	if k > 0 {
		installStep = killAt(k)
	}
	if err := writeReport(f[0], f[2] == "force", fakeReport(f[1])); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// killAt returns an installStep that SIGKILLs this process at its k-th call.
func killAt(k int) func() {
	n := 0
	return func() {
		if n++; n == k {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
	}
}

// writerCmd is a process of its own that writes the report of patterns
// into dir and is killed before the k-th rename of its install.
func writerCmd(dir, patterns string, force bool, k int) *exec.Cmd {
	mode := "beside"
	if force {
		mode = "force"
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %s %s %d", childEnv, dir, patterns, mode, k))
	return cmd
}

// A report killed outright (SIGKILL) at any point of its install leaves
// the directory holding one report, the earlier or the new, never files
// of both (a new README.md beside the earlier report.html and plots).
func TestKilledDuringInstallLeavesOneReport(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, dir, false, fakeReport("basic"))
	earlier := snapshot(t, dir)
	killed := 0
	for k := 1; k <= 3; k++ {
		err := childproc.Run(writerCmd(dir, "basic,fenced", false, k))
		now := snapshot(t, dir)
		if err != nil {
			killed++
		}
		switch {
		case maps.Equal(now, earlier):
		case now["README.md"] != earlier["README.md"] && now["report.html"] != earlier["report.html"] && now["plots/violations.png"] != earlier["plots/violations.png"]:
			if err != nil {
				t.Errorf("kill at step %d: the new report is in place, but the run failed: %v", k, err)
			}
			mustWrite(t, dir, false, fakeReport("basic")) // back to the earlier one
		default:
			t.Fatalf("kill at install step %d (%v) left files of two reports: README.md new %v, report.html new %v",
				k, err, now["README.md"] != earlier["README.md"], now["report.html"] != earlier["report.html"])
		}
		if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+stagingPrefix+"*")); len(m) > 1 {
			t.Errorf("kill at step %d: staging directories pile up: %v", k, m)
		}
	}
	if killed == 0 {
		t.Fatal("no report was killed in its install: the installStep hook is not wired")
	}
	mustWrite(t, dir, false, fakeReport("basic"))
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+stagingPrefix+"*")); len(m) > 0 {
		t.Errorf("the staging of the killed reports is left after the next one: %v", m)
	}
}

// A report beside files of others (the default reports/ holds bench/ and
// real/) cannot swap the directory: killed outright at any rename of its
// install, it leaves a journal, and the next report into the directory
// completes that install before anything else (Resume). What is there
// then is the killed report, whole, and the other files as they were.
func TestKilledBesideOtherFilesIsCompletedNext(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "bench", "NOTES.md")
	put(t, notes, "the benchmark's notes")
	mustWrite(t, dir, true, fakeReport("basic,fenced"))
	newer := snapshot(t, dir)
	mustWrite(t, dir, false, fakeReport("basic"))
	earlier := snapshot(t, dir)
	steps := 0
	for _, f := range slices.Collect(maps.Keys(newer)) {
		if f != Manifest && !strings.HasPrefix(f, "bench/") {
			steps++
		}
	}
	for _, k := range []int{1, 2, steps / 2, steps} {
		if err := childproc.Run(writerCmd(dir, "basic,fenced", false, k)); err == nil {
			t.Fatalf("kill at install step %d of %d: the report was not killed", k, steps)
		}
		if _, err := os.Stat(filepath.Join(dir, journalName)); err != nil {
			t.Fatalf("kill at install step %d: no journal of the interrupted install: %v", k, err)
		}
		if mid := snapshot(t, dir); maps.Equal(mid, earlier) || maps.Equal(mid, newer) {
			t.Fatalf("kill at install step %d of %d: no file moved, or all: the test kills nothing in between", k, steps)
		}
		d, err := Open(dir, false, fixed)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Lock(); err != nil {
			t.Fatal(err)
		}
		n, err := d.Resume()
		d.Unlock()
		if err != nil || n == 0 {
			t.Fatalf("kill at install step %d: Resume: %d files, %v", k, n, err)
		}
		if now := snapshot(t, dir); !maps.Equal(now, newer) {
			t.Errorf("kill at install step %d, then Resume: the directory is not the killed report, whole (%d files, want %d)", k, len(now), len(newer))
		}
		if m, _ := filepath.Glob(filepath.Join(dir, stagingPrefix+"*")); len(m) > 0 {
			t.Errorf("kill at install step %d, then Resume: staging left: %v", k, m)
		}
		mustWrite(t, dir, false, fakeReport("basic")) // back to the earlier one
	}
	if now := snapshot(t, dir); !maps.Equal(now, earlier) || mustRead(t, notes) != "the benchmark's notes" {
		t.Errorf("after the completed installs and a report of its own, the directory is not that report beside the other files")
	}
}
