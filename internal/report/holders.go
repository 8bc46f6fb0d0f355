package report

import (
	"github.com/locksim/locksim/internal/broken"
	"github.com/locksim/locksim/pattern"
)

// ReadWrite names the catalog's read-write locks, in pattern.All's order:
// the patterns the registry marks Shared (pattern.Pattern.Shared), whose
// clients alternate write and read leases (pattern.Alternating), and
// whose readers hold together by design.
func ReadWrite() []string {
	var out []string
	for _, p := range broken.Catalog().All() {
		if p.Shared {
			out = append(out, p.Name)
		}
	}
	return out
}

// SharedHolders reports whether p lets several clients hold at once by
// design: a semaphore's permits (MaxHolders > 1) or a read-write lock's
// readers (p.Shared). Every holder in the simulated workload writes the
// protected counter, so such a pattern loses updates without breaking a
// claim, and the comparisons of exclusive locks leave it out.
func SharedHolders(p pattern.Pattern) bool {
	return p.Claims.MaxHolders > 1 || p.Shared
}
