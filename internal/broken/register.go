package broken

import (
	"github.com/locksim/locksim/internal/pitfall"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// variant is a broken variant built on a correct pattern: the pattern's
// own registered constructor, with one step replaced (one field of a
// pitfall.Pitfall) or one option changed, and nothing else different.
type variant struct {
	name string // the variant's catalog name
	of   string // the correct pattern whose constructor builds it
	// steps names what is changed: fields of pitfall.Pitfall, or
	// "Options.F" for an option F that options changes. It is one step of
	// the pattern but for redlock-novalidity, whose mistake needs the seed
	// Redlock's own acquisition too (see redlockNoValidity).
	steps   []string
	pitfall pitfall.Pitfall
	options func(locks.Options) locks.Options // for an option change; else nil
	nodes   int
	claims  pattern.Claims // those of the correct pattern it is held to
	text    string         // the pitfall, as the catalog shows it
	summary string
}

// variants is every broken variant built on a pattern, in catalog order.
// The seed ports (fair-clock-queue, rwlock-shared-count) are not among
// them: they are the seed articles' own code, not a pattern plus one
// mistake (see the package doc).
var variants = []variant{
	basicDel, reentrantNoCount, watchdogRenewTTL, serviceSeconds, fencedVolatile,
	redlockNoValidity, redlockFencedPerNode,
	basicSharedToken, redlockSharedToken, watchdogZombie, watchdogLateDone,
}

// build is v's constructor: its pattern's registered one, given the
// Options with v's one change.
func (v variant) build() pattern.New {
	base := mustLookup(v.of).New
	return func(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error) {
		if v.options != nil {
			return base(nodes, key, v.options(o))
		}
		return base(nodes, key, pitfall.With(o, v.pitfall))
	}
}

// Extend adds the broken variants to c, beside the correct patterns they
// imitate (a program calls it on pattern.Default to select them by name).
// A variant c already has is left as it is, so that each place that needs
// the variants may extend the catalog it uses.
func Extend(c *pattern.Catalog) {
	for _, p := range Variants() {
		if !c.Has(p.Name) {
			c.Register(p)
		}
	}
}

// Catalog returns pattern.Default extended with the broken variants: the
// catalog of the packages that select them by name beside the correct
// patterns (the gate, exploration, the report).
func Catalog() *pattern.Catalog {
	Extend(pattern.Default)
	return pattern.Default
}

// Variants returns the broken variants. Each carries the Claims of the
// correct pattern it imitates: the gate expects those claims of it and
// must see them violated.
func Variants() []pattern.Pattern {
	out := make([]pattern.Pattern, 0, len(variants)+2)
	for _, v := range variants {
		out = append(out, pattern.Pattern{Name: v.name, Nodes: v.nodes, Broken: true, Claims: v.claims,
			Pitfall: v.text, Summary: v.summary, New: v.build()})
	}
	return append(out, seedFairVariant(), seedRWVariant())
}

// mustLookup is the correct pattern named name, which a variant is built
// on or held to.
func mustLookup(name string) pattern.Pattern {
	p, err := pattern.Lookup(name)
	if err != nil {
		panic("broken: " + err.Error())
	}
	return p
}

// claimsOf is the claims of the correct pattern named name.
func claimsOf(name string) pattern.Claims { return mustLookup(name).Claims }
