package pattern_test

import (
	"slices"
	"testing"

	"github.com/locksim/locksim/pattern"
)

// TestClaimsNames: the names a claim set gives are the constants, in
// order, as results and the gate have always spelled them.
func TestClaimsNames(t *testing.T) {
	cases := []struct {
		c    pattern.Claims
		want []string
	}{
		{pattern.Claims{}, []string{}},
		{pattern.Claims{Mutex: true, Progress: 5}, []string{"mutex", "progress"}},
		{pattern.Claims{SafeStore: true, Fencing: true}, []string{"safe-store", "fencing"}},
		{pattern.Claims{MaxHolders: 2}, []string{"max-holders"}},
		{pattern.Claims{Mutex: true, MaxHolders: 1}, []string{"mutex"}},
	}
	for _, c := range cases {
		if got := c.c.Names(); !slices.Equal(got, c.want) {
			t.Errorf("%+v.Names() = %q, want %q", c.c, got, c.want)
		}
		for _, k := range []pattern.Claim{pattern.ClaimMutex, pattern.ClaimSafeStore, pattern.ClaimFencing, pattern.ClaimMaxHolders, pattern.ClaimProgress} {
			if got, want := c.c.Has(k), slices.Contains(c.want, string(k)); got != want {
				t.Errorf("%+v.Has(%s) = %v, want %v", c.c, k, got, want)
			}
		}
	}
}
