package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

func tinyReport(t *testing.T, out, benchDir string) string {
	t.Helper()
	stdout, _, err := runCLI(t, "report", "--seeds", "1", "--baseline-seeds", "1", "--sweep-seeds", "1", "--patterns", "basic,fenced",
		"--scenarios", "gc-pause,steady", "--bench", benchDir, "--out", out, "--commit=false")
	if err != nil {
		t.Fatal(err)
	}
	return stdout
}

// reportMarkdown is every Markdown page of the report in dir, the front
// page first, joined.
func reportMarkdown(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for _, name := range report.PageFiles() {
		if !strings.HasSuffix(name, ".md") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case err == nil:
			b.Write(data)
		case name == report.FileMarkdown || !errors.Is(err, fs.ErrNotExist):
			t.Fatal(err)
		}
	}
	return b.String()
}

func TestReportWritesAndRepeats(t *testing.T) {
	noBench := t.TempDir() // a directory without benchmark files
	a, b := t.TempDir(), t.TempDir()
	stdout := tinyReport(t, a, noBench)
	if !strings.Contains(stdout, filepath.Join(a, "README.md")) || !strings.Contains(stdout, filepath.Join(a, "report.html")) {
		t.Errorf("stdout does not name the report's files:\n%s", stdout)
	}
	tinyReport(t, b, noBench)
	mdA, mdB := reportMarkdown(t, a), reportMarkdown(t, b)
	if string(mdA) != string(mdB) {
		t.Error("two runs of the same report command wrote different Markdown")
	}
	for _, want := range []string{"`locksim report --seeds 1 --baseline-seeds 1 --sweep-seeds 1 --production-seeds 1 --bench " + noBench + " --patterns basic,fenced --scenarios gc-pause,steady`",
		"No benchmark data", "](viz/basic--gc-pause--seed-1.html)",
		// the curves of the patterns asked for, and no other
		"![safety curve: pause length / TTL](plots/sweep-pause.png)", "| basic | 0/1",
		// the production faults, with --seeds seeds
		"## Production faults", "### gc-storm", "`splitbrain n1 at=1s for=1s old=c1`"} {
		if !strings.Contains(string(mdA), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(string(mdA), "| watchdog | 0/1") || strings.Contains(string(mdA), "plots/sweep-nodes.png") {
		t.Error("the curves include patterns the report was not asked for")
	}
}

func TestReportBadUsage(t *testing.T) {
	badBench := t.TempDir()
	if err := os.WriteFile(filepath.Join(badBench, "results.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--seeds", "0"}, "--seeds 0"},
		{[]string{"--baseline-seeds", "-1"}, "--baseline-seeds -1"},
		{[]string{"--parallel", "-2"}, "--parallel -2"},
		{[]string{"--production-seeds", "-2"}, "--production-seeds -2"},
		{[]string{"--patterns", "basic,nope"}, "--patterns"},
		{[]string{"--scenarios", "nope"}, "--scenarios"},
		{[]string{"--bench", badBench}, "--bench"},
	} {
		_, _, err := runCLI(t, append([]string{"report", "--out", t.TempDir()}, c.args...)...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("report %v: %v, want a usage error naming %s", c.args, err, c.want)
		}
	}
}

// TestWriteViz draws a failing run: basic under gc-pause loses an update,
// the counter model says so, and the pause is on the timeline.
func TestWriteViz(t *testing.T) {
	p, err := pattern.Lookup("basic")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Lookup("gc-pause", p.Nodes)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(sim.Config{Pattern: p, Scenario: sc, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Safety.LostUpdates == 0 {
		t.Fatalf("basic under gc-pause, seed 1, lost no update: pick a seed that does")
	}
	path := filepath.Join(t.TempDir(), "viz.html")
	verdict, err := writeViz(path, res.History)
	if err != nil {
		t.Fatal(err)
	}
	if verdict != "illegal (counter)" {
		t.Errorf("writeViz verdict %q with %d lost updates, want illegal (counter)", verdict, res.Safety.LostUpdates)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "<html") || !strings.Contains(string(data), "pause") {
		t.Errorf("%s is not porcupine's page with the pause annotated", path)
	}
	if _, err := writeViz(filepath.Join(t.TempDir(), "missing", "viz.html"), res.History); err == nil {
		t.Error("writeViz into a missing directory: no error")
	}
}

func TestRunViz(t *testing.T) {
	path := filepath.Join(t.TempDir(), "basic-gc-pause.html")
	_, stderr, err := runCLI(t, "run", "--pattern", "basic", "--scenario", "gc-pause", "--seed", "1", "--viz", path)
	var ve violationError
	if !errors.As(err, &ve) {
		t.Fatalf("run --viz on a violating run: %v, want a violation", err)
	}
	if !strings.Contains(stderr, "checker illegal (counter); visualisation in "+path) {
		t.Errorf("stderr does not give the checker's verdict and the file:\n%s", stderr)
	}
	if data, err := os.ReadFile(path); err != nil || !strings.Contains(string(data), "<html") {
		t.Errorf("run --viz wrote no page to %s: %v", path, err)
	}
	_, _, err = runCLI(t, "run", "--pattern", "basic", "--scenario", "gc-pause", "--viz", filepath.Join(t.TempDir(), "no", "dir.html"))
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--viz") {
		t.Errorf("run --viz into a missing directory: %v, want a usage error naming --viz", err)
	}
}

// TestReportWithoutProduction: --production-seeds 0 leaves the
// production-faults section out, and says so in the command line.
func TestReportWithoutProduction(t *testing.T) {
	out := t.TempDir()
	_, _, err := runCLI(t, "report", "--seeds", "1", "--baseline-seeds", "1", "--sweep-seeds", "0", "--production-seeds", "0", "--patterns", "basic",
		"--scenarios", "gc-pause", "--bench", t.TempDir(), "--out", out, "--commit=false")
	if err != nil {
		t.Fatal(err)
	}
	md := reportMarkdown(t, out)
	if strings.Contains(md, "## Production faults") || !strings.Contains(md, "--production-seeds 0") {
		t.Error("--production-seeds 0: the report has the production-faults section, or its command line does not say 0")
	}
}

// TestReportRefusesAMissingBenchDir: a --bench directory that does not
// exist is bad usage naming the flag and the path, refused before any
// simulation and without writing into --out; the default directory may
// be missing (the report then says it has no benchmark data), and so may
// the files in a directory that exists (TestReportWritesAndRepeats).
func TestReportRefusesAMissingBenchDir(t *testing.T) {
	out := t.TempDir()
	missing := filepath.Join(t.TempDir(), "no-such-dir")
	refused(t, "--bench "+missing+": no such directory", []string{filepath.Join(out, "README.md"), filepath.Join(out, report.FileManifest)},
		"report", "--seeds", "1", "--baseline-seeds", "1", "--patterns", "basic", "--scenarios", "gc-pause", "--bench", missing, "--out", out)
	afile := filepath.Join(t.TempDir(), "results.json")
	if err := os.WriteFile(afile, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	refused(t, "--bench "+afile+": not a directory", nil,
		"report", "--seeds", "1", "--patterns", "basic", "--scenarios", "gc-pause", "--bench", afile, "--out", out)
	if entries, err := os.ReadDir(out); err != nil || len(entries) != 0 {
		t.Errorf("a refused report wrote into --out: %v, %v", entries, err)
	}
}
