package reportdir

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixed are the pages every report of these tests writes at its top.
var fixed = []string{"README.md", "report.html"}

// fakeReport is a report's files and their bytes: the pages, a plot, and
// a counterexample page per pattern of patterns (comma-separated), each
// naming the report it belongs to.
func fakeReport(patterns string) map[string]string {
	files := map[string]string{}
	for _, f := range append(slices.Clone(fixed), "plots/violations.png") {
		files[f] = f + " of the report of " + patterns
	}
	for _, p := range strings.Split(patterns, ",") {
		files["viz/"+p+"--gc-pause--seed-1.html"] = "counterexample of " + p
	}
	return files
}

// writeReport puts the report of files into dir as the report command
// does: open, lock, complete an interrupted install, write and install.
func writeReport(dir string, force bool, files map[string]string) error {
	d, err := Open(dir, force, fixed)
	if err != nil {
		return err
	}
	if err := d.Lock(); err != nil {
		return err
	}
	defer d.Unlock()
	if _, err := d.Resume(); err != nil {
		return err
	}
	return d.Write(func(staging string) error {
		for _, f := range slices.Sorted(maps.Keys(files)) {
			p := filepath.Join(staging, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, []byte(files[f]), 0o644); err != nil {
				return err
			}
		}
		return nil
	})
}

func mustWrite(t *testing.T, dir string, force bool, files map[string]string) {
	t.Helper()
	if err := writeReport(dir, force, files); err != nil {
		t.Fatal(err)
	}
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

// withManifest is files with the manifest that lists them.
func withManifest(files map[string]string) map[string]string {
	out := maps.Clone(files)
	out[Manifest] = manifestHeader + "\n" + strings.Join(slices.Sorted(maps.Keys(files)), "\n") + "\n"
	return out
}

// Open refuses, before anything is written, a directory that cannot take
// a report: each as a UsageError naming it.
func TestOpenRefuses(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		force bool
		want  string
	}{
		{"other files", map[string]string{"notes.txt": "mine", "viz/mine.html": "my page"}, false,
			"not empty and holds no earlier report (no manifest.txt): give an empty or new directory, or --force to write beside notes.txt, viz"},
		{"a page no report wrote, with --force", map[string]string{"README.md": "my readme", "notes.txt": "mine"}, true,
			"README.md not written by an earlier report (not in manifest.txt): move them; --force writes beside other files, never over them"},
		{"a page the manifest does not list", map[string]string{Manifest: manifestHeader + "\nplots/violations.png\n", "README.md": "my readme"}, false,
			"README.md not written by an earlier report (not in manifest.txt)"},
		{"not a manifest", map[string]string{Manifest: "README.md\n"}, false, "is not a locksim report manifest"},
		{"a manifest naming a file outside", map[string]string{Manifest: manifestHeader + "\n../x\n"}, false, `"../x" is not a file inside the report`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for f, text := range c.files {
				put(t, filepath.Join(dir, f), text)
			}
			_, err := Open(dir, c.force, fixed)
			if !IsUsage(err) || !strings.HasPrefix(err.Error(), "--out "+dir+": ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Open = %v, want a usage error naming --out %s and %q", err, dir, c.want)
			}
			if got := snapshot(t, dir); !maps.Equal(got, c.files) {
				t.Errorf("a refused Open changed the directory: %v", got)
			}
		})
	}
	file := filepath.Join(t.TempDir(), "afile")
	put(t, file, "x")
	if _, err := Open(file, false, fixed); !IsUsage(err) || !strings.HasPrefix(err.Error(), "--out "+file+": not writable: it is a file") {
		t.Errorf("Open(a file) = %v, want a usage error saying it is a file", err)
	}
}

// A report replaces and removes only the files its manifest lists:
// beside other files (--force), and again over the earlier report.
func TestWritesOnlyItsFiles(t *testing.T) {
	dir := t.TempDir()
	mine, notes := filepath.Join(dir, "viz", "mine.html"), filepath.Join(dir, "notes.txt")
	put(t, mine, "my page")
	put(t, notes, "my notes")
	mustWrite(t, dir, true, fakeReport("basic,basic-del"))
	manifest := strings.Split(mustRead(t, filepath.Join(dir, Manifest)), "\n")
	for _, want := range []string{"README.md", "report.html", "viz/basic--gc-pause--seed-1.html", "viz/basic-del--gc-pause--seed-1.html", "plots/violations.png"} {
		if !slices.Contains(manifest, want) {
			t.Errorf("the manifest lacks %s:\n%s", want, strings.Join(manifest, "\n"))
		}
	}
	if slices.Contains(manifest, "viz/mine.html") || slices.Contains(manifest, "notes.txt") {
		t.Errorf("the manifest lists the user's files:\n%s", strings.Join(manifest, "\n"))
	}

	mustWrite(t, dir, false, fakeReport("basic")) // over the earlier report: no --force needed
	if mustRead(t, mine) != "my page" || mustRead(t, notes) != "my notes" {
		t.Error("the report changed the user's files")
	}
	if _, err := os.Stat(filepath.Join(dir, "viz", "basic-del--gc-pause--seed-1.html")); err == nil {
		t.Error("the earlier report's page that this one does not write was kept")
	}
	if got := mustRead(t, filepath.Join(dir, "README.md")); got != fakeReport("basic")["README.md"] {
		t.Errorf("README.md = %q, want the new report's", got)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, stagingPrefix+"*")); len(m) > 0 {
		t.Errorf("staging left behind: %v", m)
	}
}

// Where the directory holds nothing but the earlier report, the new one
// replaces the directory itself (a new directory at the path, swapped in
// one step); beside other files the directory stays and its files move.
func TestWholeDirectoryIsSwapped(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, dir, false, fakeReport("basic"))
	before, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, dir, false, fakeReport("fenced"))
	after, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(before, after) {
		t.Error("a report over a directory of nothing but the earlier report did not swap the directory")
	}
	if got, want := snapshot(t, dir), withManifest(fakeReport("fenced")); !maps.Equal(got, want) {
		t.Errorf("after the swap the directory holds %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+stagingPrefix+"*")); len(m) > 0 {
		t.Errorf("the staging beside the directory is left: %v", m)
	}

	put(t, filepath.Join(dir, "bench", "NOTES.md"), "the benchmark's notes")
	mustWrite(t, dir, false, fakeReport("basic"))
	if again, err := os.Stat(dir); err != nil || !os.SameFile(after, again) {
		t.Errorf("a report beside other files replaced the directory (%v)", err)
	}
}

// A file of the user's inside one of the report's directories (viz/) is
// kept when the report replaces an earlier one: the directory is not the
// report's alone, so it is not swapped away.
func TestKeepsAUsersFileInItsDirectories(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, dir, false, fakeReport("basic"))
	mine := filepath.Join(dir, "viz", "mine.html")
	put(t, mine, "my page")
	mustWrite(t, dir, false, fakeReport("basic,fenced"))
	if got := mustRead(t, mine); got != "my page" {
		t.Errorf("the user's %s is now %q", mine, got)
	}
}

// A file the report writes that is there and no earlier report wrote is
// refused at the install, as bad usage, and kept: --force writes beside
// other files, never over them.
func TestInstallNeverWritesOverAForeignFile(t *testing.T) {
	dir := t.TempDir()
	plot := filepath.Join(dir, "plots", "violations.png")
	put(t, plot, "my plot")
	err := writeReport(dir, true, fakeReport("basic"))
	want := "--out " + dir + ": plots/violations.png exists and is not an earlier report's (not in manifest.txt): move it (--force writes beside other files, never over them)"
	if !IsUsage(err) || err.Error() != want {
		t.Errorf("a report over a file no report wrote: %v, want a usage error %q", err, want)
	}
	if got := snapshot(t, dir); !maps.Equal(got, map[string]string{"plots/violations.png": "my plot"}) {
		t.Errorf("the refused report changed the directory: %v", got)
	}
}

// A second report into a directory another is writing is refused at its
// Lock, naming the holder; the first is unaffected, and the lock file
// goes when it ends.
func TestLockRefusesASecondReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	first, err := Open(dir, false, fixed)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Lock(); err != nil {
		t.Fatal(err)
	}
	second, err := Open(dir, false, fixed)
	if err != nil {
		t.Fatal(err)
	}
	err = second.Lock()
	want := fmt.Sprintf("--out %s: another locksim report is writing it (pid %d); nothing was written: wait for it to end, or give another --out", dir, os.Getpid())
	if err == nil || IsUsage(err) || err.Error() != want {
		t.Errorf("a second Lock: %v, want %q (not a usage error)", err, want)
	}
	if err := first.Write(func(staging string) error {
		return os.WriteFile(filepath.Join(staging, "README.md"), []byte("first"), 0o644)
	}); err != nil {
		t.Fatalf("the first report beside a refused one: %v", err)
	}
	first.Unlock()
	if got := snapshot(t, dir); !maps.Equal(got, withManifest(map[string]string{"README.md": "first"})) {
		t.Errorf("after the first report the directory holds %v", got)
	}
}

// A journal that names no staging of the directory is refused by
// Resume, saying why, and nothing is touched.
func TestResumeRefusesABadJournal(t *testing.T) {
	for _, c := range []struct{ journal, why string }{
		{"staging " + stagingPrefix + "1\nREADME.md\n", "not a locksim install journal"},
		{journalHeader + "\nstaging ../elsewhere\nREADME.md\n", "its second line names no staging directory"},
		{journalHeader + "\nstaging " + stagingPrefix + "gone\nREADME.md\n", "its staging " + stagingPrefix + "gone is gone"},
		{journalHeader + "\nstaging " + stagingPrefix + "1\n../x\n", `"../x" is not a file inside the report`},
	} {
		dir := t.TempDir()
		mustWrite(t, dir, false, fakeReport("basic"))
		put(t, filepath.Join(dir, stagingPrefix+"1", "README.md"), "staged")
		put(t, filepath.Join(dir, journalName), c.journal)
		before := snapshot(t, dir)
		err := writeReport(dir, false, fakeReport("fenced"))
		want := fmt.Sprintf("--out %s: %s: an interrupted install that cannot be completed (%s)", dir, filepath.Join(dir, journalName), c.why)
		if err == nil || IsUsage(err) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("journal %q: %v, want an error starting %q", c.journal, err, want)
		}
		if !maps.Equal(snapshot(t, dir), before) {
			t.Errorf("journal %q: the directory changed", c.journal)
		}
	}
}
