package report

import (
	"fmt"
	"image/color"
	"io"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/locksim/locksim/bench/plotstyle"
	"github.com/locksim/locksim/internal/safefile"
)

// How the report's plots are drawn, so that a reader can trust them:
// a margin around everything (titles and rotated labels stay inside the
// frame), the legend in a column of its own to the right of the data
// (never over it), axes with headroom above the tallest bar or whisker,
// the Okabe–Ito palette (distinguishable with every common colour-vision
// deficiency) with a distinct marker per series, so that colour is never
// the only cue (plotstyle, which the benchmark's plots share), and error
// bars from the Wilson intervals.

// okabeIto is the palette every plot shares (plotstyle.OkabeIto).
var okabeIto = plotstyle.OkabeIto

// series returns the colour and marker of series k (plotstyle.Series).
func series(k int) (color.Color, draw.GlyphDrawer) { return plotstyle.Series(k) }

// Layout of a saved plot.
const (
	plotWidth    = 24 * vg.Centimeter
	plotMargin   = 0.4 * vg.Centimeter
	legendColumn = 4 * vg.Centimeter
)

// newPlot is a plot with the report's title padding.
func newPlot(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = 0.4 * vg.Centimeter
	return p
}

// figure is a plot and, if set, a legend drawn in a column to its right,
// as wide as its longest entry (names).
type figure struct {
	p      *plot.Plot
	legend *plot.Legend
	names  []string
	height vg.Length
	// panels, when set, are small multiples drawn one above the other in
	// place of p (p is their first, whose title places the legend), of
	// one height but the last, which has bottom more for its x labels.
	panels []*plot.Plot
	bottom vg.Length
}

// legendWidth is the legend column's width: the longest name, its
// thumbnail and a margin, at least legendColumn.
func (f figure) legendWidth() vg.Length {
	w := legendColumn
	for _, n := range f.names {
		w = max(w, f.legend.TextStyle.Width(n)+f.legend.ThumbnailWidth+plotMargin*2)
	}
	return w
}

// save writes the figure as dir/name.png and dir/name.svg.
func (f figure) save(dir, name string) error {
	for _, ext := range []string{".png", ".svg"} {
		if err := f.saveAs(filepath.Join(dir, name+ext), ext); err != nil {
			return fmt.Errorf("report: plot %s%s: %w", name, ext, err)
		}
	}
	return nil
}

func (f figure) saveAs(path, ext string) error {
	var c vg.CanvasWriterTo
	if ext == ".svg" {
		c = vgsvg.New(plotWidth, f.height)
	} else {
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(plotWidth, f.height), vgimg.UseDPI(96), vgimg.UseBackgroundColor(color.White))}
	}
	f.draw(draw.New(c))
	return safefile.Write(path, func(w io.Writer) error {
		_, err := c.WriteTo(w)
		return err
	})
}

// draw lays the figure out: the plot inside the margin, less the legend
// column when there is a legend, and the legend at the column's top.
func (f figure) draw(dc draw.Canvas) {
	inner := draw.Crop(dc, plotMargin, -plotMargin, 2*plotMargin, -plotMargin) // rotated tick labels overrun their box
	if f.legend == nil {
		f.drawPlots(inner)
		return
	}
	lw := f.legendWidth()
	f.drawPlots(draw.Crop(inner, 0, -lw, 0, 0))
	col := draw.Crop(inner, inner.Size().X-lw+plotMargin, 0, 0, -f.p.Title.Padding-f.p.Title.TextStyle.Rectangle(f.p.Title.Text).Size().Y)
	f.legend.Top, f.legend.Left = true, true
	f.legend.Draw(col)
}

// drawPlots draws p, or the panels one above the other.
func (f figure) drawPlots(dc draw.Canvas) {
	if len(f.panels) == 0 {
		f.p.Draw(dc)
		return
	}
	const pad = 0.3 * vg.Centimeter
	n := vg.Length(len(f.panels))
	h := (dc.Size().Y - f.bottom - (n-1)*pad) / n
	tiles := make([]draw.Canvas, len(f.panels))
	top := vg.Length(0)
	for i := range f.panels {
		ph := h
		if i == len(f.panels)-1 {
			ph += f.bottom
		}
		tiles[i] = draw.Crop(dc, 0, 0, dc.Size().Y-top-ph, -top)
		top += ph + pad
	}
	// Line the data areas up: each panel's axes and labels take their own
	// room, so crop each tile by what the widest ones take more.
	var left, right vg.Length
	for i, p := range f.panels {
		da := p.DataCanvas(tiles[i])
		left, right = max(left, da.Min.X-tiles[i].Min.X), max(right, tiles[i].Max.X-da.Max.X)
	}
	for i, p := range f.panels {
		da := p.DataCanvas(tiles[i])
		p.Draw(draw.Crop(tiles[i], left-(da.Min.X-tiles[i].Min.X), -(right - (tiles[i].Max.X - da.Max.X)), 0, 0))
	}
}

// newLegend is an empty legend in the report's style.
func newLegend() *plot.Legend {
	l := plot.NewLegend()
	l.ThumbnailWidth = 0.6 * vg.Centimeter
	return &l
}

// seriesNames are the names of the series, for the legend's width.
func seriesNames(ss []rateSeries) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.name)
	}
	return out
}

// rateSeries is one series of rates with their intervals: a line with
// markers and vertical error bars.
type rateSeries struct {
	name string
	xs   []float64
	ks   []int
	ns   []int
}

// addRates draws the series on p with error bars and adds them to l;
// ys are rates in [0, 1]. dx shifts series k sideways so that the
// whiskers of series at one x do not hide each other.
func addRates(p *plot.Plot, l *plot.Legend, ss []rateSeries, dx float64, line bool) error {
	for k, s := range ss {
		col, g := series(k)
		pts := make(plotter.XYs, len(s.xs))
		errs := make(plotter.YErrors, len(s.xs))
		off := dx * (float64(k) - float64(len(ss)-1)/2)
		for i := range s.xs {
			r := float64(s.ks[i]) / float64(max(s.ns[i], 1))
			iv := Wilson(s.ks[i], s.ns[i])
			pts[i] = plotter.XY{X: s.xs[i] + off, Y: r}
			errs[i].Low, errs[i].High = r-iv.Lo, iv.Hi-r
		}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs})
		if err != nil {
			return err
		}
		eb.Color, eb.CapWidth = col, 0.25*vg.Centimeter
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Color, sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = col, g, 0.12*vg.Centimeter
		p.Add(eb, sc)
		thumbs := []plot.Thumbnailer{sc}
		if line {
			ln, err := plotter.NewLine(pts)
			if err != nil {
				return err
			}
			ln.Color = col
			p.Add(ln)
			thumbs = append(thumbs, ln)
		}
		l.Add(s.name, thumbs...)
	}
	p.Y.Min, p.Y.Max = 0, 1.05
	p.Y.Tick.Marker = percentTicks{}
	return nil
}

// percentTicks labels a [0, 1] axis in percent.
type percentTicks struct{}

func (percentTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for v := 0.0; v <= 1.0001; v += 0.1 {
		t := plot.Tick{Value: v}
		if int(v*100+0.5)%20 == 0 {
			t.Label = fmt.Sprintf("%.0f%%", v*100)
		}
		out = append(out, t)
	}
	return out
}
