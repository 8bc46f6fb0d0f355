package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/locksim/locksim/internal/safefile"
)

// A plot's size without its legend, the gap between the two, and the
// resolution of its PNG (gonum/plot's default).
const (
	plotW, plotH = 18 * vg.Centimeter, 11 * vg.Centimeter
	legendGap    = vg.Centimeter / 2
	pngDPI       = 96
)

// saveLegendBeside writes p to file, in the format its extension names,
// with the legend in a column of its own right of the plot, top-aligned
// with the data: a legend drawn over the data (gonum/plot's) covers the
// points nearest its corner, the highest client count's.
func saveLegendBeside(p *plot.Plot, file string) (err error) {
	legend := p.Legend
	width := legend.Rectangle(draw.Canvas{}).Size().X
	c, err := draw.NewFormattedCanvas(plotW+legendGap+width, plotH, strings.TrimPrefix(strings.ToLower(filepath.Ext(file)), "."))
	if err != nil {
		return err
	}
	dc := draw.New(c)
	p.Legend = plot.NewLegend() // the plot is drawn without its legend
	p.Draw(draw.Crop(dc, 0, -(legendGap + width), 0, 0))
	p.Legend = legend
	legend.Draw(draw.Crop(dc, plotW+legendGap, 0, 0, -titleHeight(p)))
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	_, err = c.WriteTo(f)
	return err
}

// titleHeight is the height p's title takes above the data.
func titleHeight(p *plot.Plot) vg.Length {
	if p.Title.Text == "" {
		return 0
	}
	return p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
}

// panelH is the height of one panel of small multiples.
const panelH = 7 * vg.Centimeter

// savePanelsPlot writes the panels as dir/name.png and .svg.
func savePanelsPlot(ps []*plot.Plot, dir, name string) error {
	for _, ext := range []string{".png", ".svg"} {
		save := func(tmp string) error { return savePanels(ps, tmp) }
		if err := safefile.WritePath(filepath.Join(dir, name+ext), save); err != nil {
			return fmt.Errorf("plot %s%s: %w", name, ext, err)
		}
	}
	return nil
}

// savePanels writes small multiples to file, one above the other, each
// with its legend in a column right of its data (saveLegendBeside), the
// first panel taller by its title.
func savePanels(ps []*plot.Plot, file string) (err error) {
	width := vg.Length(0)
	for _, p := range ps {
		width = max(width, p.Legend.Rectangle(draw.Canvas{}).Size().X)
	}
	height := vg.Length(len(ps))*panelH + titleHeight(ps[0])
	c, err := draw.NewFormattedCanvas(plotW+legendGap+width, height, strings.TrimPrefix(strings.ToLower(filepath.Ext(file)), "."))
	if err != nil {
		return err
	}
	dc := draw.New(c)
	top := vg.Length(0)
	for _, p := range ps {
		h := panelH + titleHeight(p)
		tile := draw.Crop(dc, 0, 0, height-top-h, -top)
		legend := p.Legend
		p.Legend = plot.NewLegend()
		p.Draw(draw.Crop(tile, 0, -(legendGap + width), 0, 0))
		p.Legend = legend
		legend.Draw(draw.Crop(tile, plotW+legendGap, 0, 0, -titleHeight(p)))
		top += h
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	_, err = c.WriteTo(f)
	return err
}
