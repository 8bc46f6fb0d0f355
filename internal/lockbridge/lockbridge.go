// Package lockbridge is how package locks lends what is not its users' API
// to the rest of this module: the setter of a deliberate mistake (package
// pitfall), the internals of the kit for building a Locker (package
// lockkit), and the lock code as built (real mode's fingerprints).
//
// Package locks fills it in as it is initialised, and every caller
// reaches it with a type of package locks in hand (an Options, a Lease),
// so locks is initialised first. The values are held untyped, since this
// package cannot import locks; each accessor asserts the type its caller
// names, so a mismatch is a panic at the first call, not a silent
// difference.
package lockbridge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/locksim/locksim/clock"
)

// Lent is what package locks lends, each function of the type its field
// names.
type Lent struct {
	// Code is the lock code as built: package locks' Go files and its
	// scripts (scripts/*.lua, scripts/*.go), tests included.
	Code fs.FS
	// WithPitfall is func(locks.Options, pitfall.Pitfall) locks.Options.
	WithPitfall any
	// NewLease is func(LeaseSpec) (*locks.Lease, Hold).
	NewLease any
	// Resolve is func(locks.Options, bool) (Resolved[locks.Options,
	// *locks.Lease], error); the bool says the pattern renews.
	Resolve any
}

var lent Lent

// Lend records what package locks lends; it calls it once, in its init.
func Lend(l Lent) { lent = l }

// WithPitfall returns o building its pattern with the mistake p.
func WithPitfall[O, P any](o O, p P) O { return lent.WithPitfall.(func(O, P) O)(o, p) }

// LeaseSpec is what a lease is made of (lockkit.LeaseSpec, field for
// field).
type LeaseSpec struct {
	Clock clock.Clock
	Key   string
	Token string
	Fence int64
	Count int
	Start time.Time
	Valid time.Duration
}

// Hold is the control side of a lease made by NewLease.
type Hold interface {
	Renewed(start time.Time, valid time.Duration)
	End(err error)
}

// NewLease returns a lease made to spec, and its control side.
func NewLease[L any](spec LeaseSpec) (L, Hold) {
	return lent.NewLease.(func(LeaseSpec) (L, Hold))(spec)
}

// Resolved is a resolved Options: the defaults filled in (Options) and the
// steps the patterns configure by it.
type Resolved[O, L any] struct {
	Options  O
	TTLms    int64
	Validity func(elapsed time.Duration) time.Duration
	Retry    func(ctx context.Context, try func() (L, error)) (L, error)
}

// Resolve checks o and fills in its defaults as the patterns do (renews:
// as those that renew).
func Resolve[O, L any](o O, renews bool) (Resolved[O, L], error) {
	return lent.Resolve.(func(O, bool) (Resolved[O, L], error))(o, renews)
}

// CodeDigest is a digest (hex SHA-256) of the lock code as built: every
// file of Lent.Code but the tests. A verdict recorded with one digest was
// made by other lock code than a binary with another (real mode's cells
// record it to tell a stale cell from a fresh one).
func CodeDigest() string { return codeDigest() }

var codeDigest = sync.OnceValue(func() string { return DigestSources(lent.Code) })

// Code is the lock code as built, tests included (Lent.Code).
func Code() fs.FS { return lent.Code }

// DigestSources is CodeDigest of the lock code in fsys, laid out as Code:
// every file but the tests (*_test.go), by path.
func DigestSources(fsys fs.FS) string {
	h := sha256.New()
	var names []string
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, "_test.go") {
			names = append(names, p)
		}
		return nil
	})
	slices.Sort(names)
	for _, n := range names {
		b, _ := fs.ReadFile(fsys, n)
		h.Write([]byte(n + "\x00"))
		h.Write(b)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
