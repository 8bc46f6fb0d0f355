package bench

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/locksim/locksim/bench/plotstyle"
	"github.com/locksim/locksim/internal/safefile"
)

// WritePlots draws the sweep into dir, each plot as PNG and SVG, in the
// report's palette (plotstyle): throughput-<keys> (small multiples of
// cycles/s against clients, a few subjects per panel beside the floor,
// each median with its confidence interval as whiskers),
// latency-<keys> (p50/p99/p99.9 of the cycle per subject at the highest
// client count), redlock-nodes (Redlock latency against node count) and
// contention (small multiples of the hot key's p99 acquire wait against
// clients). Each
// legend is drawn in a column right of its plot, never over the data.
func WritePlots(dir string, res *Result) error {
	var errs []error
	save := func(name string, p *plot.Plot, err error) {
		if err == nil && p != nil {
			err = savePlot(p, dir, name)
		}
		errs = append(errs, err)
	}
	for _, k := range res.Config.Keys {
		ps, err := throughputPanels(res, k)
		if err == nil && ps != nil {
			err = savePanelsPlot(ps, dir, "throughput-"+string(k))
		}
		errs = append(errs, err)
		p, err := latencyPlot(res, k)
		save("latency-"+string(k), p, err)
	}
	p, err := redlockPlot(res)
	save("redlock-nodes", p, err)
	if slices.Contains(res.Config.Keys, Hot) {
		ps, err := contentionPanels(res)
		if err == nil && ps != nil {
			err = savePanelsPlot(ps, dir, "contention")
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func keyTitle(k KeyMode) string {
	if k == Hot {
		return "one hot key"
	}
	return "a key per client"
}

func savePlot(p *plot.Plot, dir, name string) error {
	for _, ext := range []string{".png", ".svg"} {
		save := func(tmp string) error { return saveLegendBeside(p, tmp) }
		if err := safefile.WritePath(filepath.Join(dir, name+ext), save); err != nil {
			return fmt.Errorf("plot %s%s: %w", name, ext, err)
		}
	}
	return nil
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
	return p
}

// clientAxis makes X a log axis with a tick at every client count.
func clientAxis(p *plot.Plot, clients []int) {
	p.X.Scale = plot.LogScale{}
	p.X.Min, p.X.Max = float64(slices.Min(clients))/1.5, float64(slices.Max(clients))*1.5
	var ticks []plot.Tick
	for _, c := range clients {
		ticks = append(ticks, plot.Tick{Value: float64(c), Label: strconv.Itoa(c)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
}

// logY makes Y a log axis spanning the positive values of ys (a log axis
// cannot start at 0, nor span a single value).
func logY(p *plot.Plot, ys []float64) {
	ys = slices.DeleteFunc(slices.Clone(ys), func(y float64) bool { return y <= 0 })
	if len(ys) == 0 {
		return
	}
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Min, p.Y.Max = slices.Min(ys)/1.5, slices.Max(ys)*1.5
}

// addLine adds one styled line with points; points with y ≤ 0 are left out
// (a log axis cannot show them).
func addLine(p *plot.Plot, i int, name string, xys plotter.XYs, dashed bool) error {
	xys = slices.DeleteFunc(xys, func(xy plotter.XY) bool { return xy.Y <= 0 })
	if len(xys) == 0 {
		return nil
	}
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return fmt.Errorf("line %s: %w", name, err)
	}
	col, shape := plotstyle.Series(i)
	l.Color, s.Color, s.Shape = col, col, shape
	if dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	}
	p.Add(l, s)
	p.Legend.Add(name, l, s)
	return nil
}

// addInterval draws, for subject's rows, the confidence interval of the
// median cycles/s (CyclesPerSecLo–Hi, at CILevel) as whiskers in the
// subject's colour (style i), at each client count times shift, so that
// subjects at one client count do not hide each other's.
func addInterval(p *plot.Plot, i int, rows []Row, subject string, shift float64) error {
	var pts plotter.XYs
	var errs plotter.YErrors
	for _, r := range rows {
		if r.Subject != subject || r.CyclesPerSecHi <= 0 {
			continue
		}
		pts = append(pts, plotter.XY{X: float64(r.Clients) * shift, Y: r.CyclesPerSec})
		errs = append(errs, struct{ Low, High float64 }{r.CyclesPerSec - r.CyclesPerSecLo, r.CyclesPerSecHi - r.CyclesPerSec})
	}
	if len(pts) == 0 {
		return nil
	}
	eb, err := plotter.NewYErrorBars(struct {
		plotter.XYer
		plotter.YErrorer
	}{pts, errs})
	if err != nil {
		return fmt.Errorf("interval %s: %w", subject, err)
	}
	eb.Color, _ = plotstyle.Series(i)
	eb.CapWidth = vg.Points(4)
	p.Add(eb)
	return nil
}

// series is a subject's value against clients within one table.
func series(rows []Row, subject string, y func(Row) float64) plotter.XYs {
	var xys plotter.XYs
	for _, r := range rows {
		if r.Subject == subject {
			xys = append(xys, plotter.XY{X: float64(r.Clients), Y: y(r)})
		}
	}
	return xys
}

// panelSubjects is how many subjects a throughput panel draws beside the
// floor: fifteen lines in one plot cross at every client count.
const panelSubjects = 4

// throughputPanels are small multiples of cycles/s against clients: each
// panel draws up to panelSubjects subjects, in the order the results list
// them, beside the floor (black, dashed) as the reference, each median
// with its confidence interval as whiskers, on one y scale for all.
func throughputPanels(res *Result, keys KeyMode) ([]*plot.Plot, error) {
	rows := selectRows(res.Rows, Single, 1, keys)
	if len(rows) == 0 {
		return nil, nil
	}
	var subjects []string
	top := 0.0
	for _, name := range rowSubjects(rows) {
		if name != "floor" {
			subjects = append(subjects, name)
		}
	}
	for _, r := range rows {
		top = max(top, r.CyclesPerSecHi, r.CyclesPerSec)
	}
	var out []*plot.Plot
	for k := 0; k < len(subjects) || k == 0; k += panelSubjects {
		group := subjects[k:min(k+panelSubjects, len(subjects))]
		title := ""
		if k == 0 {
			title = fmt.Sprintf("One node, %s (%s): median cycles/s, whiskers its confidence interval", keyTitle(keys), res.Target)
		}
		p := newPlot(title, "clients", "cycles/s")
		if err := addThroughput(p, floorIndex, rows, "floor", true, 1); err != nil {
			return nil, err
		}
		for i, name := range group {
			shift := math.Pow(1.025, float64(i)-float64(len(group)-1)/2) // a log axis: shift by a factor
			if err := addThroughput(p, i, rows, name, false, shift); err != nil {
				return nil, err
			}
		}
		clientAxis(p, res.Config.Clients)
		p.Y.Min, p.Y.Max = 0, top*1.05
		p.Y.Tick.Marker = wholeTicks{}
		out = append(out, p)
	}
	return out, nil
}

// wholeTicks are gonum's default ticks labelled as whole numbers (an axis
// whose maximum is not round gets labels such as 50000.00 otherwise).
type wholeTicks struct{}

func (wholeTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', 0, 64)
		}
	}
	return ts
}

// floorIndex is the floor's style in every panel: black.
const floorIndex = 6

// addThroughput draws a subject's median cycles/s and its interval, the
// whiskers shifted sideways by the factor shift.
func addThroughput(p *plot.Plot, i int, rows []Row, name string, dashed bool, shift float64) error {
	if err := addLine(p, i, name, series(rows, name, func(r Row) float64 { return r.CyclesPerSec }), dashed); err != nil {
		return err
	}
	return addInterval(p, i, rows, name, shift)
}

// contentionPanels are small multiples of the hot key's p99 acquire
// wait against clients: panelSubjects subjects a panel beside the floor
// (black, dashed), on one log scale for all (fifteen lines in one plot
// cross at every client count).
func contentionPanels(res *Result) ([]*plot.Plot, error) {
	rows := selectRows(res.Rows, Single, 1, Hot)
	if len(rows) == 0 {
		return nil, nil
	}
	wait := func(r Row) float64 { return r.AcquireP99 / 1e3 }
	var subjects []string
	var ys []float64
	for _, name := range rowSubjects(rows) {
		if name != "floor" {
			subjects = append(subjects, name)
		}
		for _, xy := range series(rows, name, wait) {
			ys = append(ys, xy.Y)
		}
	}
	var out []*plot.Plot
	for k := 0; k < len(subjects) || k == 0; k += panelSubjects {
		title := ""
		if k == 0 {
			title = fmt.Sprintf("One hot key (%s): p99 acquire wait, over every repetition's acquisitions", res.Target)
		}
		p := newPlot(title, "clients", "p99 acquire wait (ms)")
		if err := addLine(p, floorIndex, "floor", series(rows, "floor", wait), true); err != nil {
			return nil, err
		}
		for i, name := range subjects[k:min(k+panelSubjects, len(subjects))] {
			if err := addLine(p, i, name, series(rows, name, wait), false); err != nil {
				return nil, err
			}
		}
		logY(p, ys)
		clientAxis(p, res.Config.Clients)
		out = append(out, p)
	}
	return out, nil
}

// latencyPlot is a grouped bar chart: per subject, p50, p99 and p99.9 of the
// cycle at the highest client count.
func latencyPlot(res *Result, keys KeyMode) (*plot.Plot, error) {
	top := slices.Max(res.Config.Clients)
	var rows []Row
	for _, r := range selectRows(res.Rows, Single, 1, keys) {
		if r.Clients == top {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil, nil
	}
	p := newPlot(fmt.Sprintf("Single node, %s, %d clients: cycle latency (%s)", keyTitle(keys), top, res.Target), "", "ms")
	p.Y.Scale = floorLog{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	w := vg.Points(10)
	lowest, highest := math.Inf(1), 0.0
	for i, q := range []struct {
		name string
		v    func(Row) float64
	}{{"p50", func(r Row) float64 { return r.CycleP50 }}, {"p99", func(r Row) float64 { return r.CycleP99 }},
		{"p99.9", func(r Row) float64 { return r.CycleP999 }}} {
		vals := make(plotter.Values, len(rows))
		for k, r := range rows {
			vals[k] = max(q.v(r)/1e3, 1e-3) // a log axis needs positive bars
			lowest, highest = min(lowest, vals[k]), max(highest, vals[k])
		}
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, fmt.Errorf("bars %s: %w", q.name, err)
		}
		b.Color, _ = plotstyle.Series(i)
		b.LineStyle.Width = 0
		b.Offset = vg.Length(i-1) * w
		p.Add(b)
		p.Legend.Add(q.name, b)
	}
	p.NominalX(rowSubjects(rows)...)
	p.Y.Min = lowest / 2 // the bars start at 0: floorLog puts it on the axis
	p.Y.Max = highest * 1.5
	p.X.Tick.Label.Rotation = math.Pi / 5
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	return p, nil
}

// floorLog is a log scale on which values at or below the axis minimum
// (a bar's base, 0) sit on the axis instead of being undefined.
type floorLog struct{}

func (floorLog) Normalize(lo, hi, x float64) float64 {
	return plot.LogScale{}.Normalize(lo, hi, math.Max(x, lo))
}

// redlockPlot shows, for each quorum subject, p50 (solid) and p99 (dashed)
// of the cycle against the node count, with the fewest clients on distinct
// keys: the latency one acquisition costs.
func redlockPlot(res *Result) (*plot.Plot, error) {
	lo := slices.Min(res.Config.Clients)
	var rows []Row
	for _, r := range res.Rows {
		if r.Family == Quorum && r.Keys == Distinct && r.Clients == lo {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil, nil
	}
	p := newPlot(fmt.Sprintf("Redlock, %d client(s): cycle latency vs nodes (%s)", lo, res.Target), "nodes", "ms")
	var ticks []plot.Tick
	for _, n := range res.Config.QuorumNodes {
		ticks = append(ticks, plot.Tick{Value: float64(n), Label: strconv.Itoa(n)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	for i, name := range rowSubjects(rows) {
		for _, q := range []struct {
			label  string
			v      func(Row) float64
			dashed bool
		}{{"p50", func(r Row) float64 { return r.CycleP50 }, false}, {"p99", func(r Row) float64 { return r.CycleP99 }, true}} {
			var xys plotter.XYs
			for _, r := range rows {
				if r.Subject == name {
					xys = append(xys, plotter.XY{X: float64(r.Nodes), Y: q.v(r) / 1e3})
				}
			}
			if err := addLine(p, i, name+" "+q.label, xys, q.dashed); err != nil {
				return nil, err
			}
		}
	}
	var ys []float64
	for _, r := range rows {
		ys = append(ys, r.CycleP50/1e3, r.CycleP99/1e3)
	}
	logY(p, ys)
	p.X.Min, p.X.Max = 0.5, float64(slices.Max(res.Config.QuorumNodes))+0.5
	return p, nil
}
