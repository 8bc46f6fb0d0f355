package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
	refused(t, "README.md not written by the earlier report", []string{readme}, reportArgs(t, other, "basic")...)
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
	dir := filepath.Join("..", "..", "reports")
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
