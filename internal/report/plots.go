package report

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotDir is the directory, inside the report's, of the plots.
const PlotDir = "plots"

// The plots, each written as PNG and SVG.
const (
	PlotViolations       = "violations"        // safety violation rate, correct patterns × scenarios
	PlotViolationsBroken = "violations-broken" // the same for the broken variants
	PlotPromptness       = "promptness"        // late loss signal rate, correct patterns × scenarios
	PlotFencing          = "lost-updates-fencing"
	PlotBaselineRate     = "baseline-rate"
	PlotBaselineWait     = "baseline-p99-wait"
	PlotSafetyCost       = "safety-cost"
)

// writePlots draws the plots into dir/plots and returns the names of those
// it drew (a plot without data is left out), the sweeps' curves last. b
// may be nil.
func writePlots(dir string, m *Measurements, b *Bench, sweeps []*Sweep) ([]string, error) {
	pdir := filepath.Join(dir, PlotDir)
	var names []string
	var errs []error
	for _, pl := range []struct {
		name string
		make func() (*figure, error)
	}{
		{PlotViolations, func() (*figure, error) { return violationPlot(m, false, Safety) }},
		{PlotViolationsBroken, func() (*figure, error) { return violationPlot(m, true, Safety) }},
		{PlotPromptness, func() (*figure, error) { return violationPlot(m, false, Promptness) }},
		{PlotFencing, func() (*figure, error) { return fencingPlot(m) }},
		{PlotBaselineRate, func() (*figure, error) { return baselineRatePlot(m) }},
		{PlotBaselineWait, func() (*figure, error) { return baselineWaitPlot(m) }},
		{PlotSafetyCost, func() (*figure, error) { return safetyCostPlot(m, b) }},
	} {
		f, err := pl.make()
		if err == nil && f != nil {
			err = f.save(pdir, pl.name)
			names = append(names, pl.name)
		}
		errs = append(errs, err)
	}
	for _, s := range sweeps {
		err := WriteSweepPlot(pdir, s)
		if err == nil {
			names = append(names, SweepPlot(s))
		}
		errs = append(errs, err)
	}
	return names, errors.Join(errs...)
}

// rateGrid is the rates of one kind of claim of some patterns (rows)
// under every scenario (columns). Y grows upward, so grid row r is the
// pattern rows[len-1-r]: the first pattern is drawn on top.
type rateGrid struct {
	m    *Measurements
	rows []int // pattern indexes, top to bottom
	kind ClaimKind
}

func (g rateGrid) Dims() (c, r int) { return len(g.m.Scenarios), len(g.rows) }
func (g rateGrid) Z(c, r int) float64 {
	cell := g.cell(c, r)
	return float64(cell.Kinds[g.kind].Violating) / float64(max(cell.Seeds, 1))
}
func (g rateGrid) X(c int) float64 { return float64(c) }
func (g rateGrid) Y(r int) float64 { return float64(r) }

func (g rateGrid) cell(c, r int) *Cell { return g.m.Cells[g.rows[len(g.rows)-1-r]][c] }

// whiteTo is a sequential palette of n steps from no violation (white) to
// every seed (an Okabe–Ito colour): one hue, so that lightness alone
// reads the rate, whatever the reader's colour vision. Safety ends in
// vermillion, promptness in reddish purple (the colour of a late loss
// signal's span on its counterexample page), so that the two grids are
// not read as one.
type whiteTo struct {
	n   int
	end color.RGBA
}

func (p whiteTo) Colors() []color.Color {
	out := make([]color.Color, p.n)
	mix := func(end uint8, f float64) uint8 { return uint8(255 - (255-float64(end))*f) }
	for i := range out {
		f := float64(i) / float64(p.n-1)
		out[i] = color.RGBA{R: mix(p.end.R, f), G: mix(p.end.G, f), B: mix(p.end.B, f), A: 255}
	}
	return out
}

// kindPalette is the grid palette of a kind of claim.
func kindPalette(k ClaimKind) whiteTo {
	if k == Promptness {
		return whiteTo{11, color.RGBA{0xCC, 0x79, 0xA7, 0xFF}}
	}
	return whiteTo{11, color.RGBA{0xD5, 0x5E, 0x00, 0xFF}}
}

// violationPlot is a grid of patterns × scenarios coloured by the rate of
// one kind of claim, each cell labelled violating/seeds and its interval.
func violationPlot(m *Measurements, broken bool, k ClaimKind) (*figure, error) {
	g := rateGrid{m: m, kind: k}
	for i, p := range m.Patterns {
		if p.Broken == broken {
			g.rows = append(g.rows, i)
		}
	}
	if len(g.rows) == 0 {
		return nil, nil
	}
	p := newPlot("Safety: seeds that broke a safety claim of the pattern / seeds (95% interval)")
	switch {
	case k == Promptness:
		p.Title.Text = "Promptness: seeds with a loss signalled past the pattern's bound / seeds (95% interval)"
	case broken:
		p.Title.Text = "Broken variants: seeds that broke a safety claim / seeds (95% interval)"
	}
	h := plotter.NewHeatMap(g, kindPalette(k))
	h.Min, h.Max = 0, 1
	p.Add(h)
	labels, err := cellLabels(g)
	if err != nil {
		return nil, err
	}
	p.Add(labels)
	var xt, yt []plot.Tick
	for j, s := range m.Scenarios {
		xt = append(xt, plot.Tick{Value: float64(j), Label: s.Name})
	}
	for r, i := range g.rows {
		yt = append(yt, plot.Tick{Value: float64(len(g.rows) - 1 - r), Label: m.Patterns[i].Name})
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.ConstantTicks(xt), plot.ConstantTicks(yt)
	rotateX(p)
	return &figure{p: p, height: vg.Length(len(g.rows))*1.1*vg.Centimeter + 9*vg.Centimeter}, nil
}

func cellLabels(g rateGrid) (*plotter.Labels, error) {
	var l plotter.XYLabels
	cols, rows := g.Dims()
	for r := range rows {
		for c := range cols {
			cell := g.cell(c, r)
			l.XYs = append(l.XYs, plotter.XY{X: g.X(c), Y: g.Y(r)})
			k := cell.Kinds[g.kind].Violating
			label := fmt.Sprintf("%d/%d\n%s", k, cell.Seeds, IntervalText(Wilson(k, cell.Seeds)))
			if TooFewSeeds(k, cell.Seeds, CareRate) {
				label += FewMark
			}
			l.Labels = append(l.Labels, label)
		}
	}
	labels, err := plotter.NewLabels(l)
	if err != nil {
		return nil, err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
		labels.TextStyle[i].Font.Size = vg.Points(8)
		if c, r := i%cols, i/cols; g.Z(c, r) > 0.6 { // dark cells: white text
			labels.TextStyle[i].Color = color.White
		}
	}
	return labels, nil
}

func rotateX(p *plot.Plot) {
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
}

// fencingPlot compares, per scenario, the seeds with a lost update of each
// correct pattern that issues tokens, with and without the store checking
// them, as rates with their intervals.
func fencingPlot(m *Measurements) (*figure, error) {
	var names []string
	for _, s := range m.Scenarios {
		names = append(names, s.Name)
	}
	var panels []*plot.Plot
	l := newLegend()
	var legendNames []string
	for i, pi := range m.Patterns {
		if !pi.Tokens || pi.Broken {
			continue
		}
		with, without := rateSeries{name: "store checks tokens"}, rateSeries{name: "tokens withheld"}
		for j := range m.Scenarios {
			c := m.Cells[i][j]
			with.xs, with.ks, with.ns = append(with.xs, float64(j)), append(with.ks, c.LostRuns), append(with.ns, c.Seeds)
			without.xs, without.ks, without.ns = append(without.xs, float64(j)), append(without.ks, noFenceRuns(c)), append(without.ns, c.Seeds)
		}
		p := newPlot(pi.Name + ": seeds with a lost update (95% interval)")
		p.Title.Padding = 0.15 * vg.Centimeter
		pl := l
		if len(panels) > 0 {
			pl = newLegend() // one legend for all panels: the first's
		} else {
			legendNames = seriesNames([]rateSeries{with, without})
		}
		if err := addRates(p, pl, []rateSeries{with, without}, 0.12, false); err != nil {
			return nil, err
		}
		p.Y.Tick.Marker = sparsePercent{}
		p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
		p.Add(plotter.NewGrid())
		panels = append(panels, p)
	}
	if len(panels) == 0 {
		return nil, nil
	}
	for k, p := range panels {
		labels := make([]string, len(names))
		if k == len(panels)-1 {
			copy(labels, names)
		}
		p.NominalX(labels...)
		p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
	}
	rotateX(panels[len(panels)-1])
	return &figure{p: panels[0], panels: panels, bottom: 4.5 * vg.Centimeter, legend: l, names: legendNames, height: vg.Length(len(panels))*4.5*vg.Centimeter + 5.5*vg.Centimeter}, nil
}

// sparsePercent labels a [0, 1] axis at 0, 50% and 100%: a small panel
// has no room for more.
type sparsePercent struct{}

func (sparsePercent) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for v := 0.0; v <= 1.0001; v += 0.25 {
		t := plot.Tick{Value: v}
		if int(v*100+0.5)%50 == 0 {
			t.Label = fmt.Sprintf("%.0f%%", v*100)
		}
		out = append(out, t)
	}
	return out
}

// baselineRatePlot shows the correct patterns' acquisitions per simulated
// second in the baseline.
func baselineRatePlot(m *Measurements) (*figure, error) {
	return baselineBars(m, "acquisitions per simulated second", "acquisitions/s", func(c *Cell) float64 { return c.AcqPerSec() })
}

// baselineWaitPlot shows their p99 acquire wait (median over seeds).
func baselineWaitPlot(m *Measurements) (*figure, error) {
	return baselineBars(m, "p99 acquire wait (median over seeds)", "ms", func(c *Cell) float64 { return float64(c.P99Wait) / 1e6 })
}

func baselineBars(m *Measurements, title, unit string, value func(*Cell) float64) (*figure, error) {
	j := m.scenarioIndex(Baseline)
	if j < 0 {
		return nil, nil
	}
	p := newPlot(fmt.Sprintf("%s (no faults, %s): %s", Baseline, seedsText(m.BaselineSeeds), title))
	p.Y.Label.Text = unit
	var vals plotter.Values
	var names []string
	top := 0.0
	for i, pi := range m.Patterns {
		if !pi.Broken {
			v := value(m.Cells[i][j])
			vals, names, top = append(vals, v), append(names, pi.Name), math.Max(top, v)
		}
	}
	b, err := plotter.NewBarChart(vals, 0.9*vg.Centimeter)
	if err != nil {
		return nil, err
	}
	b.Color = okabeIto[4]
	p.Add(plotter.NewGrid(), b)
	p.Y.Min, p.Y.Max = 0, top*1.15
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4 // room beside the first and last bars
	p.NominalX(names...)
	rotateX(p)
	return &figure{p: p, height: 11 * vg.Centimeter}, nil
}

func (m *Measurements) scenarioIndex(name string) int {
	for j, s := range m.Scenarios {
		if s.Name == name {
			return j
		}
	}
	return -1
}
