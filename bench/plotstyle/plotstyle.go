// Package plotstyle is the one palette of every plot locksim draws, the
// report's and the benchmark's: the Okabe–Ito colours (distinguishable
// with every common colour-vision deficiency), its yellow last as it is
// faint on white, with a distinct marker per series, so that colour is
// never the only cue.
package plotstyle

import (
	"image/color"

	"gonum.org/v1/plot/vg/draw"
)

// OkabeIto is the palette, in the order series take it.
var OkabeIto = []color.Color{
	color.RGBA{0xE6, 0x9F, 0x00, 0xFF}, // orange
	color.RGBA{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	color.RGBA{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	color.RGBA{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	color.RGBA{0x00, 0x72, 0xB2, 0xFF}, // blue
	color.RGBA{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	color.RGBA{0x00, 0x00, 0x00, 0xFF}, // black
	color.RGBA{0xF0, 0xE4, 0x42, 0xFF}, // yellow: last, it is faint on white
}

// Glyphs are the markers, one per series, in step with OkabeIto.
var Glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PlusGlyph{},
	draw.CrossGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
}

// Series returns the colour and marker of series k. Past the palette's
// eight colours the marker shifts by one each round, so that no two of the
// first 64 series share both colour and marker.
func Series(k int) (color.Color, draw.GlyphDrawer) {
	return OkabeIto[k%len(OkabeIto)], Glyphs[(k+k/len(OkabeIto))%len(Glyphs)]
}
