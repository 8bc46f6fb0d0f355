package cli

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/childproc"
	"github.com/locksim/locksim/internal/report"
)

// The report's --out through the command: its refusals (exit 2), a busy
// or broken directory (exit 3) and what it says. How the directory is
// written (the manifest, the staging, the swap, the journal, a kill at
// any step) is tested in internal/reportdir.

// reportArgs are a small report's into out, with --bench an empty
// directory (no benchmark data).
func reportArgs(t *testing.T, out, patterns string, extra ...string) []string {
	return append([]string{"report", "--seeds", "1", "--baseline-seeds", "1", "--patterns", patterns,
		"--scenarios", "gc-pause", "--bench", t.TempDir(), "--out", out, "--commit=false"}, extra...)
}

func put(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// filesUnder is every regular file under dir, as sorted slash paths.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

// lockFileName is the lock a report holds on its --out, as its help names it.
const lockFileName = ".locksim-report.lock"

// TestReportWritesOnlyItsFiles: report --out refuses a directory of other
// files unless --force (exit 2, before any work), and then writes beside
// them, listing only its own files in the manifest; the next report
// replaces the earlier one without --force and leaves the user's files.
func TestReportWritesOnlyItsFiles(t *testing.T) {
	out := t.TempDir()
	mine, notes := filepath.Join(out, "viz", "mine.html"), filepath.Join(out, "notes.txt")
	put(t, mine, "my page")
	put(t, notes, "my notes")
	refused(t, "not empty and holds no earlier report", []string{mine, notes, filepath.Join(out, "README.md")}, reportArgs(t, out, "basic")...)

	if _, _, err := runCLI(t, reportArgs(t, out, "basic,basic-del", "--force")...); err != nil {
		t.Fatal(err)
	}
	manifest := mustRead(t, filepath.Join(out, report.FileManifest))
	for _, want := range []string{"README.md", "report.html", "viz/basic--gc-pause--seed-1.html", "viz/basic-del--gc-pause--seed-1.html", "plots/violations.png"} {
		if !slices.Contains(strings.Split(manifest, "\n"), want) {
			t.Errorf("manifest lacks %s:\n%s", want, manifest)
		}
	}
	if strings.Contains(manifest, "mine.html") || strings.Contains(manifest, "notes.txt") {
		t.Errorf("manifest lists the user's files:\n%s", manifest)
	}

	// Without --force now: the directory holds an earlier report.
	if _, _, err := runCLI(t, reportArgs(t, out, "basic")...); err != nil {
		t.Fatalf("a report over an earlier report: %v", err)
	}
	if mustRead(t, mine) != "my page" || mustRead(t, notes) != "my notes" {
		t.Error("the report changed the user's files")
	}
	if _, err := os.Stat(filepath.Join(out, "viz", "basic-del--gc-pause--seed-1.html")); err == nil {
		t.Error("the earlier report's page that this one does not write was kept")
	}

	// A README.md that no report wrote is not replaced: here the manifest
	// lists a plot only.
	header, _, _ := strings.Cut(manifest, "\n")
	other := writeDir(t, report.FileManifest, header+"\nplots/violations.png\n")
	readme := filepath.Join(other, "README.md")
	put(t, readme, "my readme")
	refused(t, "README.md not written by an earlier report", []string{readme}, reportArgs(t, other, "basic")...)
}

func TestReportRefusesBadOut(t *testing.T) {
	dir := t.TempDir()
	afile := filepath.Join(dir, "afile")
	put(t, afile, "x")
	refused(t, "--out "+afile+": not writable: it is a file", []string{afile}, "report", "--out", afile, "--seeds", "1")
	refused(t, "--out "+dir+" is the input --bench "+dir, nil, "report", "--out", dir, "--bench", dir, "--seeds", "1")
	refused(t, "not a locksim report manifest", nil, "report", "--out", writeDir(t, report.FileManifest, "README.md\n"), "--seeds", "1")
}

func writeDir(t *testing.T, name, text string) string {
	t.Helper()
	dir := t.TempDir()
	put(t, filepath.Join(dir, name), text)
	return dir
}

// TestReportProgressIsPlainOffATerminal: into a file or pipe, report's
// progress is lines, without a bar's carriage returns.
func TestReportProgressIsPlainOffATerminal(t *testing.T) {
	_, stderr, err := runCLI(t, reportArgs(t, t.TempDir(), "basic")...)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr, "\r") || !strings.Contains(stderr, "report: 1/1 runs (100%)") {
		t.Errorf("report's progress into a buffer: %q, want plain lines ending with report: 1/1 runs (100%%)", stderr)
	}
}

// A report into a directory another report is writing is refused at once
// (exit 3, naming the other's pid), writes nothing, and leaves the other
// to finish. Real time: a real report process, waited for with generous
// bounds.
func TestConcurrentReportIsRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	first := locksimCmd("report", "--seeds", "400", "--baseline-seeds", "1", "--patterns", "basic", "--scenarios", "gc-pause",
		"--sweep-seeds", "0", "--production-seeds", "0", "--bench", t.TempDir(), "--out", out, "--commit=false")
	var stderr bytes.Buffer
	first.Stderr = &stderr
	if err := childproc.Start(first); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- first.Wait() }()
	pid := strconv.Itoa(first.Process.Pid)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) { // real time: the first report starting
		if b, err := os.ReadFile(filepath.Join(out, lockFileName)); err == nil && strings.TrimSpace(string(b)) == pid {
			break
		}
		if time.Now().After(deadline) {
			_ = first.Process.Kill()
			<-done
			t.Fatalf("the first report took no lock in a minute:\n%s", stderr.String())
		}
	}
	_, _, err := runCLI(t, reportArgs(t, out, "basic")...)
	want := "--out " + out + ": another locksim report is writing it (pid " + pid + ")"
	if code := exitCode(err); code != exitRuntime || err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a report beside a running one: exit %d, %v; want exit %d and %q", code, err, exitRuntime, want)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the first report failed beside a refused one: %v\n%s", err, stderr.String())
		}
	case <-time.After(5 * time.Minute):
		_ = first.Process.Kill()
		<-done
		t.Fatal("the first report did not finish in 5 minutes")
	}
	for _, f := range []string{"README.md", "report.html", report.FileManifest} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("the first report's %s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, lockFileName)); err == nil {
		t.Errorf("the lock file is left after the report")
	}
}

// --force writes beside other files, never over them: a README.md that no
// report wrote is refused (exit 2) with --force too, and kept.
func TestReportForceNeverReplacesAForeignFile(t *testing.T) {
	out := t.TempDir()
	readme, notes := filepath.Join(out, "README.md"), filepath.Join(out, "notes.txt")
	put(t, readme, "my readme")
	put(t, notes, "my notes")
	refused(t, "README.md not written by an earlier report (not in manifest.txt): move them; --force writes beside other files, never over them",
		[]string{readme, notes, filepath.Join(out, "report.html")}, reportArgs(t, out, "basic", "--force")...)
}

// interruptedInstall leaves in out, which holds a report, what a report
// killed during its install beside other files leaves: the journal
// (.locksim-report-install, as the help names it) of a staging whose
// README.md is not moved yet.
func interruptedInstall(t *testing.T, out string) {
	t.Helper()
	const staging = ".locksim-report-staging-1"
	put(t, filepath.Join(out, staging, "README.md"), "the killed report's front page")
	put(t, filepath.Join(out, ".locksim-report-install"),
		"# locksim report: an install in progress. The next locksim report into this directory completes it from the staging named below.\n"+
			"staging "+staging+"\nREADME.md\n")
}

// A report into a directory where an install was interrupted completes
// that install first and says so; then it writes its own.
func TestReportCompletesAnInterruptedInstallFirst(t *testing.T) {
	out := t.TempDir()
	put(t, filepath.Join(out, "bench", "NOTES.md"), "the benchmark's notes")
	if _, _, err := runCLI(t, reportArgs(t, out, "basic", "--force")...); err != nil {
		t.Fatal(err)
	}
	before := filesUnder(t, out)
	interruptedInstall(t, out)
	_, stderr, err := runCLI(t, reportArgs(t, out, "basic")...)
	if want := "locksim: completed the install of an interrupted report into " + out + " (1 files) first\n"; err != nil || !strings.Contains(stderr, want) {
		t.Errorf("a report after a killed install: %v, stderr:\n%s\nwant it to say %q", err, stderr, want)
	}
	if after := filesUnder(t, out); !slices.Equal(after, before) || strings.Contains(mustRead(t, filepath.Join(out, "README.md")), "killed") {
		t.Errorf("after the completed install and a report of its own, the directory holds %v, want %v and its own README.md", after, before)
	}
}

// A journal that is not one is refused (exit 3) and nothing is touched.
func TestReportRefusesABadInstallJournal(t *testing.T) {
	out := t.TempDir()
	if _, _, err := runCLI(t, reportArgs(t, out, "basic")...); err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(out, ".locksim-report-install"), "staging ../elsewhere\nREADME.md\n")
	before := filesUnder(t, out)
	_, _, err := runCLI(t, reportArgs(t, out, "basic")...)
	if code := exitCode(err); code != exitRuntime || !strings.Contains(fmt.Sprint(err), "--out "+out+": "+filepath.Join(out, ".locksim-report-install")+": an interrupted install that cannot be completed") {
		t.Errorf("a bad journal: exit %d (%v), want %d", code, err, exitRuntime)
	}
	if after := filesUnder(t, out); !slices.Equal(after, before) {
		t.Errorf("a bad journal: the directory changed: %v, was %v", after, before)
	}
}
