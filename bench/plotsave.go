package bench

import (
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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
