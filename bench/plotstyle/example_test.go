package plotstyle_test

import (
	"fmt"

	"github.com/locksim/locksim/bench/plotstyle"
)

// A plot gives its k-th series the k-th colour and marker; the ninth
// series takes the first colour again with another marker.
func ExampleSeries() {
	for _, k := range []int{0, 1, 8} {
		c, g := plotstyle.Series(k)
		r, gr, b, _ := c.RGBA()
		fmt.Printf("series %d: #%02X%02X%02X %T\n", k, r>>8, gr>>8, b>>8, g)
	}
	// Output:
	// series 0: #E69F00 draw.CircleGlyph
	// series 1: #56B4E9 draw.SquareGlyph
	// series 8: #E69F00 draw.SquareGlyph
}
