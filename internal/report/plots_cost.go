package report

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/locksim/locksim/bench"
)

// safetyCostPlot puts every exclusive pattern the benchmark measured at
// its throughput (1 client, a key per client: the median and the range of
// the repetitions) against the rate of fault-scenario seeds in which it
// lost an update, as designed (tokens checked where issued), with its
// interval: the choice at a glance, safe at the bottom, cheap to the
// right.
func safetyCostPlot(m *Measurements, b *Bench) (*figure, error) {
	if b == nil {
		return nil, nil
	}
	at, _, ok := costRows(b)
	if !ok {
		return nil, nil
	}
	p := newPlot("Safety against cost: lost updates under faults, and throughput")
	p.X.Label.Text = "throughput on redis-server, cycles/s (1 client; median and range of the repetitions)"
	p.Y.Label.Text = "fault-scenario seeds with a lost update (95% interval)"
	l := newLegend()
	k := 0
	var names []string
	for _, i := range m.exclusive() {
		r, found := rowOf(at, m.Patterns[i].Name)
		if !found {
			continue
		}
		lost, n := m.pool(i, m.faults(), asDesigned)
		if err := addCostPoint(p, l, k, m.Patterns[i].Name, r, lost, n); err != nil {
			return nil, err
		}
		k++
		names = append(names, m.Patterns[i].Name)
	}
	if k == 0 {
		return nil, nil
	}
	p.Y.Min, p.Y.Max = 0, 1.05
	p.Y.Tick.Marker = percentTicks{}
	p.Add(plotter.NewGrid())
	return &figure{p: p, legend: l, names: names, height: 14 * vg.Centimeter}, nil
}

func rowOf(rows []bench.Row, subject string) (bench.Row, bool) {
	for _, r := range rows {
		if r.Subject == subject {
			return r, true
		}
	}
	return bench.Row{}, false
}

// addCostPoint draws one pattern: its marker, the rate's interval up and
// down, the throughput's range left and right.
func addCostPoint(p *plot.Plot, l *plot.Legend, k int, name string, r bench.Row, lost, n int) error {
	col, g := series(k)
	rate := float64(lost) / float64(max(n, 1))
	iv, sp := Wilson(lost, n), spread(r)
	pt := plotter.XYs{{X: r.CyclesPerSec, Y: rate}}
	ye := plotter.YErrors{{Low: rate - iv.Lo, High: iv.Hi - rate}}
	xe := plotter.XErrors{{Low: r.CyclesPerSec - sp.Lo, High: sp.Hi - r.CyclesPerSec}}
	if sp.Hi > 1e300 { // no spread recorded: no horizontal bar
		xe[0].Low, xe[0].High = 0, 0
	}
	yb, err := plotter.NewYErrorBars(struct {
		plotter.XYer
		plotter.YErrorer
	}{pt, ye})
	if err != nil {
		return err
	}
	xb, err := plotter.NewXErrorBars(struct {
		plotter.XYer
		plotter.XErrorer
	}{pt, xe})
	if err != nil {
		return err
	}
	sc, err := plotter.NewScatter(pt)
	if err != nil {
		return err
	}
	yb.Color, xb.Color = col, col
	yb.CapWidth, xb.CapWidth = 0.2*vg.Centimeter, 0.2*vg.Centimeter
	sc.GlyphStyle.Color, sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = col, g, 0.14*vg.Centimeter
	p.Add(yb, xb, sc)
	l.Add(name, sc)
	return nil
}
