package fault

import "testing"

// TestCallPointNames holds CallPoint to the names the points are spelled
// with, for every kind and for a kind it has no constant for.
func TestCallPointNames(t *testing.T) {
	for _, kind := range []string{"acquire", "release", "extend", "renew", "read", "write", "probe"} {
		for _, reply := range []bool{false, true} {
			want := Point(kind + "-sent")
			if reply {
				want = Point(kind + "-reply")
			}
			if got := CallPoint(kind, reply); got != want {
				t.Errorf("CallPoint(%q, %v) = %q, want %q", kind, reply, got, want)
			}
		}
	}
}
