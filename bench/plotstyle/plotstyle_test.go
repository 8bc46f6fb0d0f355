package plotstyle

import (
	"fmt"
	"testing"
)

// TestSeriesStylesDistinct: no two of the first 64 series share both
// colour and marker.
func TestSeriesStylesDistinct(t *testing.T) {
	seen := map[string]int{}
	for k := range 64 {
		c, g := Series(k)
		key := fmt.Sprintf("%v/%T", c, g)
		if j, ok := seen[key]; ok {
			t.Fatalf("series %d and %d are both %s", j, k, key)
		}
		seen[key] = k
	}
}
