package broken

import (
	"slices"
	"testing"

	"github.com/locksim/locksim/pattern"
)

// The tests select the variants by name beside the correct patterns.
func init() { Extend(pattern.Default) }

// TestExtendAddsEveryVariantOnce: Extend puts every variant in a catalog,
// and a second call (another place that needs them) adds nothing and
// does not panic on the names it finds there.
func TestExtendAddsEveryVariantOnce(t *testing.T) {
	c := pattern.NewCatalog()
	Extend(c)
	Extend(c)
	var names []string
	for _, p := range c.All() {
		names = append(names, p.Name)
		if !p.Broken {
			t.Errorf("%s in the catalog is not broken", p.Name)
		}
	}
	if len(names) != len(Variants()) || len(names) < 10 {
		t.Errorf("catalog has %d patterns %v, want the %d variants", len(names), names, len(Variants()))
	}
	for _, want := range []string{"basic-del", "fair-clock-queue", "rwlock-shared-count"} {
		if !slices.Contains(names, want) {
			t.Errorf("catalog lacks %s", want)
		}
	}
}
