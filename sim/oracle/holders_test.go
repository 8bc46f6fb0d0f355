package oracle

import (
	"slices"
	"testing"
)

func TestPeakHolders(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edges []edge
		peak  int
		who   []int
	}{
		{"none", nil, 0, nil},
		{"disjoint", []edge{{0, 1, true}, {10, 1, false}, {20, 2, true}, {30, 2, false}}, 1, []int{1}},
		{"touching is not overlapping", []edge{{0, 1, true}, {10, 1, false}, {10, 2, true}, {20, 2, false}}, 1, []int{1}},
		{"nested", []edge{{0, 1, true}, {30, 1, false}, {10, 2, true}, {20, 2, false}, {15, 3, true}, {25, 3, false}}, 3, []int{1, 2, 3}},
		{"one client twice counts once", []edge{{0, 4, true}, {20, 4, false}, {5, 4, true}, {25, 4, false}, {6, 2, true}, {8, 2, false}}, 2, []int{2, 4}},
	} {
		peak, who := peakHolders(tc.edges)
		if peak != tc.peak || !slices.Equal(who, tc.who) {
			t.Errorf("%s: peak %d of %v, want %d of %v", tc.name, peak, who, tc.peak, tc.who)
		}
	}
}
