package report

import (
	"slices"

	"github.com/locksim/locksim/pattern"
)

// ReadWrite names the catalog's read-write locks: their clients alternate
// write and read leases (pattern.Alternating), and readers hold together
// by design.
var ReadWrite = []string{"rwlock", "rwlock-shared-count"}

// SharedHolders reports whether p lets several clients hold at once by
// design: a semaphore's permits (MaxHolders > 1) or a read-write lock's
// readers. Every holder in the simulated workload writes the protected
// counter, so such a pattern loses updates without breaking a claim, and
// the comparisons of exclusive locks leave it out.
func SharedHolders(p pattern.Pattern) bool {
	return p.Claims.MaxHolders > 1 || slices.Contains(ReadWrite, p.Name)
}
