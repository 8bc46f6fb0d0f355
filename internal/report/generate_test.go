package report

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/reportdir"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// tinyJob is a report of basic under gc-pause, one seed, into out.
func tinyJob(t *testing.T, out string) Job {
	t.Helper()
	basic, err := pattern.Lookup("basic")
	if err != nil {
		t.Fatal(err)
	}
	b, err := scenarioBuiltin("gc-pause")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Seeds: 1, BaselineSeeds: 1, Patterns: []pattern.Pattern{basic}, Scenarios: []scenario.Builtin{b}, Workers: 2}
	return Job{Phases: Phases{Config: cfg}, Out: out, Command: "locksim report (test)"}
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

// TestGenerateWritesTheReportDir: Generate checks the directory, loads
// the inputs, measures through Measure and writes the report with its
// manifest listing every file it wrote, in that order.
func TestGenerateWritesTheReportDir(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	var steps []string
	j := tinyJob(t, out)
	j.Inputs = func() (*Bench, *Agreement, error) {
		steps = append(steps, "inputs")
		return nil, &Agreement{Missing: "no table here"}, nil
	}
	j.Measure = func(run func() (*Measured, error)) (*Measured, error) {
		steps = append(steps, "measure")
		return run()
	}
	m, err := Generate(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"inputs", "measure"}; !slices.Equal(steps, want) {
		t.Errorf("Generate went through %q, want %q", steps, want)
	}
	if m.Runs == 0 || m.Runs != m.Grid.Runs {
		t.Errorf("Measured.Runs = %d (grid %d), want the grid's simulations", m.Runs, m.Grid.Runs)
	}
	files := filesUnder(t, out)
	manifest, err := os.ReadFile(filepath.Join(out, FileManifest))
	if err != nil {
		t.Fatal(err)
	}
	listed := strings.Split(strings.TrimSpace(string(manifest)), "\n")[1:]
	if want := slices.DeleteFunc(slices.Clone(files), func(f string) bool { return f == FileManifest }); !slices.Equal(listed, want) {
		t.Errorf("the manifest lists %q, the directory holds %q", listed, want)
	}
	readme, err1 := os.ReadFile(filepath.Join(out, FileMarkdown))
	real, err2 := os.ReadFile(filepath.Join(out, "real.md"))
	if err := errors.Join(err1, err2); err != nil || !strings.Contains(string(readme), "locksim report (test)") || !strings.Contains(string(real), "no table here") {
		t.Errorf("README.md does not show the command, or real.md the agreement Inputs gave (%v)", err)
	}
}

// A directory that cannot take the report is refused before the inputs
// are loaded or anything measured, as a usage error, and left as it was.
func TestGenerateRefusesBeforeAnyWork(t *testing.T) {
	out := t.TempDir()
	notes := filepath.Join(out, "notes.txt")
	if err := os.WriteFile(notes, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	j := tinyJob(t, out)
	j.Inputs = func() (*Bench, *Agreement, error) { t.Error("the inputs were loaded"); return nil, nil, nil }
	j.Measure = func(func() (*Measured, error)) (*Measured, error) {
		t.Error("the report was measured")
		return nil, nil
	}
	if _, err := Generate(context.Background(), j); !IsUsage(err) || !strings.Contains(err.Error(), "not empty and holds no earlier report") {
		t.Errorf("Generate into a directory of other files: %v, want a usage error", err)
	}
	if got := filesUnder(t, out); !slices.Equal(got, []string{"notes.txt"}) {
		t.Errorf("a refused report changed the directory: %q", got)
	}
}

// The errors of Inputs and Measure come back as they are, and a report
// stopped in its measurement writes nothing.
func TestGenerateReturnsItsCallersErrors(t *testing.T) {
	stop := errors.New("interrupted")
	for _, fail := range []string{"inputs", "measure"} {
		out := filepath.Join(t.TempDir(), "r")
		j := tinyJob(t, out)
		j.Inputs = func() (*Bench, *Agreement, error) {
			if fail == "inputs" {
				return nil, nil, stop
			}
			return nil, nil, nil
		}
		j.Measure = func(func() (*Measured, error)) (*Measured, error) { return nil, stop }
		if _, err := Generate(context.Background(), j); err != stop {
			t.Errorf("%s failing: Generate = %v, want its error as it is", fail, err)
		}
		if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s failing: the directory Generate would have made is there (%v)", fail, err)
		}
	}
}

// TestCommittedReportHasItsManifest: reports/manifest.txt lists exactly
// the report's files in reports/ (bench/ is the benchmark's, real/ real
// mode's agreement table), so that make report accepts the committed
// directory and replaces them all.
func TestCommittedReportHasItsManifest(t *testing.T) {
	dir := filepath.Join("..", "..", "reports")
	d, err := reportdir.Open(dir, false, PageFiles())
	if err != nil {
		t.Fatalf("the committed reports/ is refused: %v", err)
	}
	var want []string
	for _, f := range filesUnder(t, dir) {
		if !strings.HasPrefix(f, "bench/") && !strings.HasPrefix(f, "real/") && f != FileManifest {
			want = append(want, f)
		}
	}
	if !slices.Equal(d.Owned(), want) {
		t.Errorf("reports/%s lists %v,\nreports/ holds %v", FileManifest, d.Owned(), want)
	}
}
