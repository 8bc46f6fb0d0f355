package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// The report's files, inside its directory (with PlotDir and VizDir).
const (
	FileMarkdown = "README.md"
	FileHTML     = "report.html"
)

// Write writes the report into dir, creating it: the counterexamples of
// every violating cell (dir/viz, cleared of earlier HTML files first), the
// plots (dir/plots, PNG and SVG), then the advisor's evidence
// (FileEvidence), the Markdown and the HTML page. b
// may be nil (no benchmark data).
func Write(dir string, m *Measurements, b *Bench, opt Options) error {
	if opt.CheckTimeout == 0 {
		opt.CheckTimeout = DefaultCheckTimeout
	}
	if err := os.MkdirAll(filepath.Join(dir, PlotDir), 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := writeVizzes(dir, m, opt.CheckTimeout); err != nil {
		return err
	}
	plots, err := writePlots(dir, m, b, opt.Sweeps)
	if err != nil {
		return err
	}
	opt.Plots = plots
	if b != nil && opt.BenchLink == "" {
		opt.BenchLink = BenchLink(dir, b.Dir)
	}
	d := Build(m, b, opt)
	ev := Evidence(m, opt.Production, b, opt)
	return errors.Join(
		writeFile(filepath.Join(dir, FileEvidence), ev.Write),
		writeFile(filepath.Join(dir, FileMarkdown), func(w io.Writer) error { return WriteMarkdown(w, d) }),
		writeFile(filepath.Join(dir, FileHTML), func(w io.Writer) error { return WriteHTML(w, d) }))
}

// BenchLink is the benchmark directory as a link from the report's
// directory dir: a relative slash path when there is one, else the
// directory as given. Write computes it unless Options.BenchLink is set
// (a report written elsewhere and moved into dir).
func BenchLink(dir, benchDir string) string {
	absDir, err1 := filepath.Abs(dir)
	absBench, err2 := filepath.Abs(benchDir)
	if err1 != nil || err2 != nil {
		return filepath.ToSlash(benchDir)
	}
	rel, err := filepath.Rel(absDir, absBench)
	if err != nil {
		return filepath.ToSlash(benchDir)
	}
	return filepath.ToSlash(rel)
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("report: write %s: %w", path, err)
	}
	return f.Close()
}
