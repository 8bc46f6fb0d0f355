package report

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// SweepPlot is the file name (without extension) of a sweep's plot.
func SweepPlot(s *Sweep) string { return "sweep-" + s.Dimension.Name }

// sweepFigure draws a sweep: per pattern, the violation rate at each
// point with its interval, joined by a line.
func sweepFigure(s *Sweep) (*figure, error) {
	p := newPlot(fmt.Sprintf("Safety curve: %s (%s scenario, %s per point)", s.Dimension.Axis, s.Base, seedsText(s.seeds())))
	p.X.Label.Text = s.Dimension.Axis
	p.Y.Label.Text = "seeds that broke a safety claim (95% interval)"
	var ss []rateSeries
	for i, pi := range s.Patterns {
		r := rateSeries{name: pi.Name}
		for k, v := range s.Points {
			c := s.Cells[i][k]
			r.xs, r.ks, r.ns = append(r.xs, v), append(r.ks, c.Kinds[Safety].Violating), append(r.ns, c.Seeds)
		}
		ss = append(ss, r)
	}
	l := newLegend()
	lo, hi := s.Points[0], s.Points[len(s.Points)-1]
	if err := addRates(p, l, ss, (hi-lo)*0.012, true); err != nil {
		return nil, err
	}
	pad := (hi - lo) * 0.06
	p.X.Min, p.X.Max = lo-pad, hi+pad
	var ticks []plot.Tick
	for _, v := range s.Points {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.Add(plotter.NewGrid())
	return &figure{p: p, legend: l, names: seriesNames(ss), height: 13 * vg.Centimeter}, nil
}

func sweepNames(s *Sweep) []string {
	var out []string
	for _, p := range s.Patterns {
		out = append(out, p.Name)
	}
	return out
}

func (s *Sweep) seeds() int {
	if len(s.Cells) == 0 || len(s.Cells[0]) == 0 {
		return 0
	}
	return s.Cells[0][0].Seeds
}

// SweepTable is a sweep as a table: a row per pattern, a column per point.
func SweepTable(s *Sweep) Table {
	t := Table{Header: []string{"pattern \\ " + s.Dimension.Axis}}
	for _, v := range s.Points {
		t.Header = append(t.Header, strconv.FormatFloat(v, 'g', -1, 64))
	}
	for i, p := range s.Patterns {
		row := []TCell{plain("%s", p.Name)}
		for k := range s.Points {
			c := s.Cells[i][k]
			tone := Good
			if c.Kinds[Safety].Violating > 0 {
				tone = Bad
			}
			row = append(row, cell(tone, text("%s", rateMark(c.Kinds[Safety].Violating, c.Seeds))))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// WriteSweepPlot draws s into dir as SweepPlot(s).png and .svg.
func WriteSweepPlot(dir string, s *Sweep) error {
	f, err := sweepFigure(s)
	if err != nil {
		return err
	}
	return f.save(dir, SweepPlot(s))
}

// sweepSection is the report's safety curves.
func sweepSection(d *Document, sweeps []*Sweep, opt Options) {
	if len(sweeps) == 0 {
		return
	}
	d.heading(2, "curves", "Safety curves: how the violation rate grows with the fault")
	base := sweepBase()
	d.para(text("Each curve is one pattern's safety violation rate (seeds that broke a safety claim / seeds, with the 95%% interval as a whisker) as one fault grows, every other setting as in the default scenario (TTL %v, %d clients, %v simulated). ", base.TTL, base.Clients, base.Duration),
		text("Patterns: %s, one of each kind of protection (none, renewal, fencing, a quorum). ", strings.Join(sweepNames(sweeps[0]), ", ")),
		text("The same curves for a team's own patterns and settings: "), code("locksim sweep --dimension pause --pattern basic,fenced --base my-scenario.txt --out curves/"), text("."))
	for _, s := range sweeps {
		d.heading(3, "curve-"+s.Dimension.Name, s.Dimension.Axis)
		d.para(text("%s; %s per point, %d simulations.", s.Dimension.Summary, seedsText(s.seeds()), s.Runs))
		name := SweepPlot(s)
		if hasPlot(opt, name) {
			src := path.Join(PlotDir, name)
			d.add(Image{Src: src + ".png", Alt: "safety curve: " + s.Dimension.Axis})
		}
		d.add(SweepTable(s))
	}
}

func hasPlot(opt Options, name string) bool {
	for _, p := range opt.Plots {
		if p == name {
			return true
		}
	}
	return false
}

// SweepDocument is a sweep alone, as `locksim sweep` writes it.
func SweepDocument(s *Sweep, plot string) *Document {
	d := &Document{Title: fmt.Sprintf("locksim sweep: %s", s.Dimension.Axis)}
	d.para(text("%s, over the %s scenario; %s per point, %d simulations. Each cell: seeds that broke a safety claim of the pattern / seeds (late loss signals and stalls are not counted here). %s",
		s.Dimension.Summary, s.Base, seedsText(s.seeds()), s.Runs, intervalNote()))
	if plot != "" {
		d.add(Image{Src: plot, Alt: "safety curve: " + s.Dimension.Axis})
	}
	d.add(SweepTable(s))
	return d
}
