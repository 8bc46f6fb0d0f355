package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/linearizability"
)

// DefaultCheckTimeout bounds the check behind each visualisation.
const DefaultCheckTimeout = time.Minute

// VizDir is the directory, inside the report's, of the counterexamples.
const VizDir = "viz"

// VizFile checks h against the counter and register models and writes
// porcupine's HTML visualisation of the check to path, with h's fault
// events on the timeline. It returns the check's report.
func VizFile(path string, h *history.History, timeout time.Duration) (linearizability.Report, error) {
	rep, err := linearizability.Check(h, linearizability.Options{Timeout: timeout})
	if err != nil {
		return rep, err
	}
	var page bytes.Buffer
	if err := linearizability.WriteViz(&page, h, rep); err != nil {
		return rep, fmt.Errorf("report: visualisation %s: %w", path, err)
	}
	data, err := canonicalViz(page.Bytes())
	if err != nil {
		return rep, fmt.Errorf("report: visualisation %s: %w", path, err)
	}
	return rep, os.WriteFile(path, data, 0o644)
}

// Verdict names the check's verdict and the models that found a
// violation: "illegal (counter)", "ok", "unknown (register)".
func Verdict(rep linearizability.Report) string {
	var models []string
	for _, p := range rep.Parts {
		if p.Verdict != linearizability.Ok && !slices.Contains(models, p.Model) {
			models = append(models, p.Model)
		}
	}
	if len(models) == 0 {
		return string(rep.Verdict)
	}
	return fmt.Sprintf("%s (%s)", rep.Verdict, strings.Join(models, ", "))
}

// vizName is the file of a cell's counterexample, relative to the report.
func vizName(c *Cell) string {
	return filepath.ToSlash(filepath.Join(VizDir, fmt.Sprintf("%s--%s--seed-%d.html", c.Pattern, c.Scenario, c.FirstSeed)))
}

// writeVizzes writes, for every cell with a violation, the visualisation
// of its first violating seed into dir/viz, after removing the HTML files
// an earlier report left there, and records each file in its cell.
func writeVizzes(dir string, m *Measurements, timeout time.Duration) error {
	vdir := filepath.Join(dir, VizDir)
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(vdir, "*.html"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	for _, row := range m.Cells {
		for _, c := range row {
			if c.first == nil {
				continue
			}
			rep, err := VizFile(filepath.Join(dir, vizName(c)), c.first, timeout)
			if err != nil {
				return fmt.Errorf("report: %s under %s, seed %d: %w", c.Pattern, c.Scenario, c.FirstSeed, err)
			}
			c.Viz, c.VizVerdict = vizName(c), Verdict(rep)
		}
	}
	return nil
}
