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
// (FileEvidence) and each page (Pages: the front page as README.md and
// report.html, each topic page as NAME.md and NAME.html). b may be nil
// (no benchmark data).
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
	ev := Evidence(m, opt.Production, b, opt)
	if err := writeFile(filepath.Join(dir, FileEvidence), ev.Write); err != nil {
		return err
	}
	return writePages(dir, Pages(Build(m, b, opt)))
}

// writePages writes each page as Markdown and HTML, its links resolved
// across the pages for each format (resolvePages).
func writePages(dir string, pages []Page) error {
	md, html := resolvePages(pages, "md"), resolvePages(pages, "html")
	var errs []error
	for i, p := range pages {
		errs = append(errs,
			writeFile(filepath.Join(dir, pageFile(p.Name, "md")), func(w io.Writer) error { return WriteMarkdown(w, md[i]) }),
			writeFile(filepath.Join(dir, pageFile(p.Name, "html")), func(w io.Writer) error { return WriteHTML(w, html[i]) }))
	}
	return errors.Join(errs...)
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
