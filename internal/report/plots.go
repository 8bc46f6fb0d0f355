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
	PlotViolations       = "violations"        // violation rate, correct patterns × scenarios
	PlotViolationsBroken = "violations-broken" // the same for the broken variants
	PlotFencing          = "lost-updates-fencing"
	PlotBaselineRate     = "baseline-rate"
	PlotBaselineWait     = "baseline-p99-wait"
)

// writePlots draws the plots into dir/plots and returns the names of those
// it drew (a plot without data is left out).
func writePlots(dir string, m *Measurements) ([]string, error) {
	pdir := filepath.Join(dir, PlotDir)
	var names []string
	var errs []error
	for _, pl := range []struct {
		name string
		make func(*Measurements) (*plot.Plot, vg.Length, error)
	}{
		{PlotViolations, func(m *Measurements) (*plot.Plot, vg.Length, error) { return violationPlot(m, false) }},
		{PlotViolationsBroken, func(m *Measurements) (*plot.Plot, vg.Length, error) { return violationPlot(m, true) }},
		{PlotFencing, fencingPlot},
		{PlotBaselineRate, baselineRatePlot},
		{PlotBaselineWait, baselineWaitPlot},
	} {
		p, height, err := pl.make(m)
		if err == nil && p != nil {
			err = savePlot(p, height, pdir, pl.name)
			names = append(names, pl.name)
		}
		errs = append(errs, err)
	}
	return names, errors.Join(errs...)
}

func savePlot(p *plot.Plot, height vg.Length, dir, name string) error {
	for _, ext := range []string{".png", ".svg"} {
		if err := p.Save(24*vg.Centimeter, height, filepath.Join(dir, name+ext)); err != nil {
			return fmt.Errorf("report: plot %s%s: %w", name, ext, err)
		}
	}
	return nil
}

// rateGrid is the violation rates of some patterns (rows) under every
// scenario (columns). Y grows upward, so grid row r is the pattern
// rows[len-1-r]: the first pattern is drawn on top.
type rateGrid struct {
	m    *Measurements
	rows []int // pattern indexes, top to bottom
}

func (g rateGrid) Dims() (c, r int)   { return len(g.m.Scenarios), len(g.rows) }
func (g rateGrid) Z(c, r int) float64 { return g.cell(c, r).Rate() }
func (g rateGrid) X(c int) float64    { return float64(c) }
func (g rateGrid) Y(r int) float64    { return float64(r) }

func (g rateGrid) cell(c, r int) *Cell { return g.m.Cells[g.rows[len(g.rows)-1-r]][c] }

// whiteToRed is a palette from no violation (white) to every seed (red).
type whiteToRed int

func (n whiteToRed) Colors() []color.Color {
	out := make([]color.Color, n)
	for i := range out {
		f := float64(i) / float64(n-1)
		out[i] = color.RGBA{R: 255, G: uint8(255 - 200*f), B: uint8(255 - 200*f), A: 255}
	}
	return out
}

// violationPlot is a grid of patterns × scenarios coloured by violation
// rate, each cell labelled violating/seeds.
func violationPlot(m *Measurements, broken bool) (*plot.Plot, vg.Length, error) {
	g := rateGrid{m: m}
	for i, p := range m.Patterns {
		if p.Broken == broken {
			g.rows = append(g.rows, i)
		}
	}
	if len(g.rows) == 0 {
		return nil, 0, nil
	}
	p := plot.New()
	p.Title.Text = "Violation rate: seeds whose run broke a claim of the pattern / seeds"
	if broken {
		p.Title.Text = "Broken variants, violation rate: seeds whose run broke a claim / seeds"
	}
	h := plotter.NewHeatMap(g, whiteToRed(11))
	h.Min, h.Max = 0, 1
	p.Add(h)
	labels, err := cellLabels(g)
	if err != nil {
		return nil, 0, err
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
	return p, vg.Length(len(g.rows))*0.8*vg.Centimeter + 10*vg.Centimeter, nil
}

func cellLabels(g rateGrid) (*plotter.Labels, error) {
	var l plotter.XYLabels
	cols, rows := g.Dims()
	for r := range rows {
		for c := range cols {
			cell := g.cell(c, r)
			l.XYs = append(l.XYs, plotter.XY{X: g.X(c), Y: g.Y(r)})
			l.Labels = append(l.Labels, fmt.Sprintf("%d/%d", cell.Violating, cell.Seeds))
		}
	}
	labels, err := plotter.NewLabels(l)
	if err != nil {
		return nil, err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
	}
	return labels, nil
}

func rotateX(p *plot.Plot) {
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
}

// fencingPlot compares, per fault scenario, the lost updates of each
// correct pattern that issues tokens with and without the store checking
// them.
func fencingPlot(m *Measurements) (*plot.Plot, vg.Length, error) {
	p := plot.New()
	p.Title.Text = "Lost updates over all seeds: the store checking fencing tokens, and not"
	p.Y.Label.Text = "lost updates (total)"
	p.Legend.Top = true
	var bars []*plotter.BarChart
	for i, pi := range m.Patterns {
		if !pi.Tokens || pi.Broken {
			continue
		}
		var with, without plotter.Values
		for j := range m.Scenarios {
			c := m.Cells[i][j]
			with = append(with, float64(c.Lost))
			without = append(without, float64(c.NoFence.Total))
		}
		for k, v := range []struct {
			vals  plotter.Values
			label string
		}{{with, pi.Name + ", store checks tokens"}, {without, pi.Name + ", tokens withheld"}} {
			b, err := plotter.NewBarChart(v.vals, 9)
			if err != nil {
				return nil, 0, err
			}
			b.Color = []color.Color{color.RGBA{46, 109, 164, 255}, color.RGBA{192, 57, 43, 255}}[k%2]
			bars = append(bars, b)
			p.Legend.Add(v.label, b)
		}
	}
	if len(bars) == 0 {
		return nil, 0, nil
	}
	for k, b := range bars {
		b.Offset = (vg.Length(k) - vg.Length(len(bars)-1)/2) * 9
		p.Add(b)
	}
	var names []string
	for _, s := range m.Scenarios {
		names = append(names, s.Name)
	}
	p.NominalX(names...)
	rotateX(p)
	return p, 17 * vg.Centimeter, nil
}

// baselineRatePlot shows the correct patterns' acquisitions per simulated
// second in the baseline.
func baselineRatePlot(m *Measurements) (*plot.Plot, vg.Length, error) {
	return baselineBars(m, "acquisitions per simulated second", "acquisitions/s", func(c *Cell) float64 { return c.AcqPerSec() })
}

// baselineWaitPlot shows their p99 acquire wait (median over seeds).
func baselineWaitPlot(m *Measurements) (*plot.Plot, vg.Length, error) {
	return baselineBars(m, "p99 acquire wait (median over seeds)", "ms", func(c *Cell) float64 { return float64(c.P99Wait) / 1e6 })
}

func baselineBars(m *Measurements, title, unit string, value func(*Cell) float64) (*plot.Plot, vg.Length, error) {
	j := m.scenarioIndex(Baseline)
	if j < 0 {
		return nil, 0, nil
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s (no faults): %s", Baseline, title)
	p.Y.Label.Text = unit
	var vals plotter.Values
	var names []string
	for i, pi := range m.Patterns {
		if !pi.Broken {
			vals, names = append(vals, value(m.Cells[i][j])), append(names, pi.Name)
		}
	}
	b, err := plotter.NewBarChart(vals, 20)
	if err != nil {
		return nil, 0, err
	}
	b.Color = color.RGBA{46, 109, 164, 255}
	p.Add(plotter.NewGrid(), b)
	p.NominalX(names...)
	rotateX(p)
	return p, 11 * vg.Centimeter, nil
}

func (m *Measurements) scenarioIndex(name string) int {
	for j, s := range m.Scenarios {
		if s.Name == name {
			return j
		}
	}
	return -1
}
