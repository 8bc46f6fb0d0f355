package cli

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/locksim/locksim/childproc"
)

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

// TestReportWritesOnlyItsFiles: report --out refuses a directory of other
// files unless --force, and then replaces and removes only the files its
// manifest lists.
func TestReportWritesOnlyItsFiles(t *testing.T) {
	out := t.TempDir()
	mine, notes := filepath.Join(out, "viz", "mine.html"), filepath.Join(out, "notes.txt")
	put(t, mine, "my page")
	put(t, notes, "my notes")
	refused(t, "not empty and holds no earlier report", []string{mine, notes, filepath.Join(out, "README.md")}, reportArgs(t, out, "basic")...)

	if _, _, err := runCLI(t, reportArgs(t, out, "basic,basic-del", "--force")...); err != nil {
		t.Fatal(err)
	}
	manifest := mustRead(t, filepath.Join(out, manifestName))
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
	if _, err := os.Stat(filepath.Join(out, "viz", "basic--gc-pause--seed-1.html")); err != nil {
		t.Errorf("the report's own page: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(out, stagingPrefix+"*")); len(m) > 0 {
		t.Errorf("staging left behind: %v", m)
	}

	// A README.md that no report wrote is not replaced.
	other := t.TempDir()
	put(t, filepath.Join(other, manifestName), manifestHeader+"\nplots/violations.png\n")
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
	refused(t, "not a locksim report manifest", nil, "report", "--out", writeDir(t, manifestName, "README.md\n"), "--seeds", "1")
	refused(t, `"../x" is not a file inside the report`, nil, "report", "--out", writeDir(t, manifestName, manifestHeader+"\n../x\n"), "--seeds", "1")
}

func writeDir(t *testing.T, name, text string) string {
	t.Helper()
	dir := t.TempDir()
	put(t, filepath.Join(dir, name), text)
	return dir
}

// TestCommittedReportHasItsManifest: reports/manifest.txt lists exactly
// the report's files in reports/ (bench/ is the benchmark's, real/ real
// mode's agreement table), so that make report accepts the committed
// directory and replaces them all.
func TestCommittedReportHasItsManifest(t *testing.T) {
	dir := filepath.Join("..", "reports")
	rd, err := openReportDir(dir, false)
	if err != nil {
		t.Fatalf("the committed reports/ is refused: %v", err)
	}
	files, err := listFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range files {
		if !strings.HasPrefix(f, "bench/") && !strings.HasPrefix(f, "real/") && f != manifestName {
			want = append(want, f)
		}
	}
	if !slices.Equal(rd.owned, want) {
		t.Errorf("reports/%s lists %v,\nreports/ holds %v", manifestName, rd.owned, want)
	}
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

// killAtInstallStep, in a locksim run by the tests (locksimCmd), names the
// rename of report's install before which the process kills itself.
const killAtInstallStep = "LOCKSIM_TEST_KILL_AT_INSTALL_STEP"

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

// snapshot is every regular file under dir but the lock, with its bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := listFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		if f != lockName {
			out[f] = mustRead(t, filepath.Join(dir, f))
		}
	}
	return out
}

// A report killed outright (SIGKILL) at any point of its install leaves
// the directory holding one report, the earlier or the new, never files
// of both (a new README.md beside the earlier report.html and plots).
func TestReportKilledDuringInstallLeavesOneReport(t *testing.T) {
	out, bench := t.TempDir(), t.TempDir()
	args := func(patterns string) []string {
		return []string{"report", "--seeds", "1", "--baseline-seeds", "1", "--patterns", patterns,
			"--scenarios", "gc-pause", "--bench", bench, "--out", out, "--commit=false"}
	}
	if _, _, err := runCLI(t, args("basic")...); err != nil {
		t.Fatal(err)
	}
	earlier := snapshot(t, out)
	killed := 0
	for k := 1; k <= 3; k++ {
		cmd := locksimCmd(args("basic,fenced")...)
		cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", killAtInstallStep, k))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := childproc.Run(cmd)
		now := snapshot(t, out)
		if err != nil {
			killed++
		}
		switch {
		case maps.Equal(now, earlier):
		case now["README.md"] != earlier["README.md"] && now["report.html"] != earlier["report.html"] && now["plots/violations.png"] != earlier["plots/violations.png"]:
			if err != nil {
				t.Errorf("kill at step %d: the new report is in place, but the run failed: %v\n%s", k, err, stderr.String())
			}
			if _, _, err := runCLI(t, args("basic")...); err != nil { // back to the earlier one
				t.Fatal(err)
			}
			if now := snapshot(t, out); !maps.Equal(now, earlier) {
				t.Fatalf("the earlier report run again differs from itself")
			}
		default:
			t.Fatalf("kill at install step %d (%v) left files of two reports: README.md new %v, report.html new %v",
				k, err, now["README.md"] != earlier["README.md"], now["report.html"] != earlier["report.html"])
		}
		if m, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+stagingPrefix+"*")); len(m) > 1 {
			t.Errorf("kill at step %d: staging directories pile up: %v", k, m)
		}
	}
	if killed == 0 {
		t.Fatalf("no report was killed in its install: the %s hook is not wired", killAtInstallStep)
	}
	if _, _, err := runCLI(t, args("basic")...); err != nil {
		t.Fatalf("a report after the killed ones: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+stagingPrefix+"*")); len(m) > 0 {
		t.Errorf("the staging of the killed reports is left after the next one: %v", m)
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
		if b, err := os.ReadFile(filepath.Join(out, lockName)); err == nil && strings.TrimSpace(string(b)) == pid {
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
	for _, f := range []string{"README.md", "report.html", manifestName} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("the first report's %s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, lockName)); err == nil {
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

// A file of the user's inside one of the report's directories (viz/) is
// kept when the report replaces an earlier one: the directory is not the
// report's alone, so it is not swapped away.
func TestReportKeepsAUsersFileInItsDirectories(t *testing.T) {
	out := t.TempDir()
	if _, _, err := runCLI(t, reportArgs(t, out, "basic")...); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(out, "viz", "mine.html")
	put(t, mine, "my page")
	if _, _, err := runCLI(t, reportArgs(t, out, "basic,fenced")...); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, mine); got != "my page" {
		t.Errorf("the user's %s is now %q", mine, got)
	}
}

// A report beside files of others (the default reports/ holds bench/ and
// real/) cannot swap the directory: killed outright at any rename of its
// install, it leaves a journal, and the next report into the directory
// completes that install before anything else. What is there then is the
// killed report, whole, and the other files as they were.
func TestReportKilledBesideOtherFilesIsCompletedNext(t *testing.T) {
	out, bench := t.TempDir(), t.TempDir()
	notes := filepath.Join(out, "bench", "NOTES.md")
	put(t, notes, "the benchmark's notes")
	args := func(patterns string, force bool) []string {
		a := []string{"report", "--seeds", "1", "--baseline-seeds", "1", "--patterns", patterns,
			"--scenarios", "gc-pause", "--bench", bench, "--out", out, "--commit=false"}
		if force {
			a = append(a, "--force")
		}
		return a
	}
	if _, _, err := runCLI(t, args("basic,fenced", true)...); err != nil {
		t.Fatal(err)
	}
	newer := snapshot(t, out)
	if _, _, err := runCLI(t, args("basic", false)...); err != nil {
		t.Fatal(err)
	}
	earlier := snapshot(t, out)
	steps := 0
	for _, f := range slices.Collect(maps.Keys(newer)) {
		if f != manifestName && !strings.HasPrefix(f, "bench/") {
			steps++
		}
	}
	for _, k := range []int{1, 2, steps / 2, steps} {
		cmd := locksimCmd(args("basic,fenced", false)...)
		cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", killAtInstallStep, k))
		if err := childproc.Run(cmd); err == nil {
			t.Fatalf("kill at install step %d of %d: the report was not killed", k, steps)
		}
		if _, err := os.Stat(filepath.Join(out, journalName)); err != nil {
			t.Fatalf("kill at install step %d: no journal of the interrupted install: %v", k, err)
		}
		if mid := snapshot(t, out); maps.Equal(mid, earlier) || maps.Equal(mid, newer) {
			t.Fatalf("kill at install step %d of %d: no file moved, or all: the test kills nothing in between", k, steps)
		}
		rd, err := openReportDir(out, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := rd.lock(); err != nil {
			t.Fatal(err)
		}
		n, err := rd.resume()
		rd.unlock()
		if err != nil || n == 0 {
			t.Fatalf("kill at install step %d: resume: %d files, %v", k, n, err)
		}
		if now := snapshot(t, out); !maps.Equal(now, newer) {
			t.Errorf("kill at install step %d, then resume: the directory is not the killed report, whole (%d files, want %d)", k, len(now), len(newer))
		}
		if m, _ := filepath.Glob(filepath.Join(out, stagingPrefix+"*")); len(m) > 0 {
			t.Errorf("kill at install step %d, then resume: staging left: %v", k, m)
		}
		if _, _, err := runCLI(t, args("basic", false)...); err != nil { // back to the earlier one
			t.Fatal(err)
		}
	}
	// Through the command: a killed install, then a report, which says
	// it completed the first.
	cmd := locksimCmd(args("basic,fenced", false)...)
	cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", killAtInstallStep, 2))
	_ = childproc.Run(cmd)
	_, stderr, err := runCLI(t, args("basic", false)...)
	if err != nil || !strings.Contains(stderr, "completed the install of an interrupted report") {
		t.Errorf("a report after a killed install: %v, stderr:\n%s", err, stderr)
	}
	if now := snapshot(t, out); !maps.Equal(now, earlier) || mustRead(t, notes) != "the benchmark's notes" {
		t.Errorf("after the completed install and a report of its own, the directory is not that report beside the other files")
	}
}

// A journal that names no staging of the directory is refused (exit 3)
// and nothing is touched.
func TestReportRefusesABadInstallJournal(t *testing.T) {
	out := t.TempDir()
	if _, _, err := runCLI(t, reportArgs(t, out, "basic")...); err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(out, journalName), journalHeader+"\nstaging ../elsewhere\nREADME.md\n")
	before := snapshot(t, out)
	_, _, err := runCLI(t, reportArgs(t, out, "basic")...)
	if code := exitCode(err); code != exitRuntime || !strings.Contains(fmt.Sprint(err), "an interrupted install that cannot be completed") {
		t.Errorf("a bad journal: exit %d (%v), want %d", code, err, exitRuntime)
	}
	if !maps.Equal(snapshot(t, out), before) {
		t.Error("a bad journal: the directory changed")
	}
}
