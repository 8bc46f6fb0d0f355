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
	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/linearizability"
)

// DefaultCheckTimeout bounds the check behind each visualisation.
const DefaultCheckTimeout = time.Minute

// VizDir is the directory, inside the report's, of the counterexamples.
const VizDir = "viz"

// VizFile checks h against the counter and register models and writes
// porcupine's HTML visualisation of the check to path, with h's fault
// events on the timeline: a page that stands alone. It returns the
// check's report.
func VizFile(path string, h *history.History, timeout time.Duration) (linearizability.Report, error) {
	rep, page, err := vizPage(h, timeout)
	if err != nil {
		return rep, fmt.Errorf("report: visualisation %s: %w", path, err)
	}
	return rep, os.WriteFile(path, page, 0o644)
}

// vizPage checks h and returns porcupine's page of the check, its data in
// canonical order.
func vizPage(h *history.History, timeout time.Duration) (linearizability.Report, []byte, error) {
	rep, err := linearizability.Check(h, linearizability.Options{Timeout: timeout})
	if err != nil {
		return rep, nil, err
	}
	var page bytes.Buffer
	if err := linearizability.WriteViz(&page, h, rep); err != nil {
		return rep, nil, err
	}
	data, err := canonicalViz(page.Bytes())
	return rep, data, err
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
	return filepath.ToSlash(filepath.Join(VizDir, fmt.Sprintf("%s--%s--seed-%d.html", c.Pattern, c.Scenario, c.drawnSeed())))
}

// drawnSeed is the seed the cell's counterexample page draws: the first
// that broke a claim of the kind it shows (Cell.Drawn).
func (c *Cell) drawnSeed() uint64 {
	k, _ := c.Drawn()
	return c.Kinds[k].FirstSeed
}

// writeVizzes writes, for every cell with a violation, the visualisation
// of its first violating seed into dir/viz, after removing the HTML files
// an earlier report left there, and records each file in its cell. The
// pages share porcupine's script and style sheet, written once as
// dir/viz/porcupine.js and dir/viz/porcupine.css.
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
	var shared *splitPage
	for _, row := range m.Cells {
		for _, c := range row {
			if k, ok := c.Drawn(); !ok || c.Kinds[k].first == nil {
				continue
			}
			p, err := writeCellViz(dir, c, timeout)
			if err != nil {
				return fmt.Errorf("report: %s under %s, seed %d: %w", c.Pattern, c.Scenario, c.drawnSeed(), err)
			}
			if shared != nil && (!bytes.Equal(shared.script, p.script) || !bytes.Equal(shared.style, p.style)) {
				return fmt.Errorf("report: %s under %s: porcupine's script or style differs from the other pages'", c.Pattern, c.Scenario)
			}
			shared = &p
		}
	}
	if shared == nil {
		return nil
	}
	if shared.style != nil {
		if err := os.WriteFile(filepath.Join(vdir, VizStyle), shared.style, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(vdir, VizScript), shared.script, 0o644)
}

// writeCellViz writes the page of the first seed of c that broke a claim
// of the kind it draws (Cell.Drawn), and returns it cut, for the script
// and style it shares. A promptness page marks each late loss signal as
// a span on a row of its own (lateSpans).
func writeCellViz(dir string, c *Cell, timeout time.Duration) (splitPage, error) {
	kind, _ := c.Drawn()
	t := c.Kinds[kind]
	h := t.first
	if kind == Promptness {
		h = lateSpans(h, t.late)
	}
	rep, page, err := vizPage(h, timeout)
	if err != nil {
		return splitPage{}, err
	}
	p, err := cutPage(page)
	if err != nil {
		return splitPage{}, err
	}
	data, err := labelSections(p.data)
	if err != nil {
		return splitPage{}, err
	}
	verdict := Verdict(rep)
	info := pageInfo{Pattern: c.Pattern, Scenario: c.Scenario, Seed: t.FirstSeed, Kind: kind, Violated: t.Violated, Verdict: verdict,
		Linearizable: rep.Verdict == linearizability.Ok, Late: t.late, Replay: replayOf(c, t.FirstSeed), Back: "../" + pageFile(sectionPage("counterexamples"), "html") + "#counterexamples"}
	if err := os.WriteFile(filepath.Join(dir, vizName(c)), sharedPage(p, data, info), 0o644); err != nil {
		return splitPage{}, err
	}
	c.Viz, c.VizVerdict = vizName(c), verdict
	return p, nil
}

// counterexamples writes the section that lists every cell with a
// violation, with its first violating seed's page and replay command.
func counterexamples(d *Document, m *Measurements) {
	t := Table{Header: []string{"pattern", "scenario", "violating (any kind)", "claims broken, by kind", "page draws", "checker", "replay"}}
	for _, row := range m.Cells {
		for _, c := range row {
			kind, ok := c.Drawn()
			if !ok {
				continue
			}
			seed := c.Kinds[kind].FirstSeed
			first := plain("%s, seed %d", kind, seed)
			if c.Viz != "" {
				first = cell(Plain, link(fmt.Sprintf("%s, seed %d", kind, seed), c.Viz))
			}
			t.Rows = append(t.Rows, []TCell{plain("%s", c.Pattern), plain("%s", c.Scenario), plain("%d/%d", c.Violating, c.Seeds),
				plain("%s", kindsBroken(c)), first, plain("%s", c.VizVerdict), cell(Plain, code(replayOf(c, seed)))})
		}
	}
	d.heading(2, "counterexamples", "Counterexamples")
	if len(t.Rows) == 0 {
		d.para(text("No run broke a claim."))
		return
	}
	d.para(text("Every cell with a violation, the claims broken in it kind by kind ("), link("safety, liveness, promptness", "#glossary"), text("), and porcupine's visualisation of one run's history (counter and register models, faults on the timeline) with the checker's verdict on it: the first seed that broke a safety claim, or, where none did, the first that broke loss-signal (its late signals marked as spans) or progress. "),
		text("The checker judges the data, not the lock: an overlap in which the stale holder did not overwrite anyone (it saw its lease lost, or the store rejected its token) is a Mutex violation with a linearizable history (\"ok\"). "),
		text("The simulator's own verdict and trace come from the replay command."))
	d.add(t)
}

// replay is the command that re-runs a cell's first violating seed.
func replay(c *Cell) string { return replayOf(c, c.FirstSeed) }

// replayOf is the command that re-runs seed of c's pattern and scenario.
func replayOf(c *Cell, seed uint64) string {
	return fmt.Sprintf("%s run --pattern %s --scenario %s --seed %d", explore.Command(), c.Pattern, c.Scenario, seed)
}
