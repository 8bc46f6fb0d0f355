package pattern

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Catalog is a set of patterns by name, the set every command selects
// from. Default holds the patterns this package ships, and a program adds
// to it what it brings: a user's own (cli.Main(yourPatterns...)), and
// locksim's deliberately broken variants, added by an explicit call of
// their package's Extend (never by importing it for its side effects).
type Catalog struct {
	mu     sync.RWMutex
	byName map[string]Pattern
}

// NewCatalog returns an empty catalog.
func NewCatalog() *Catalog { return &Catalog{byName: map[string]Pattern{}} }

// Default is the catalog of this program: the shipped patterns, and what
// the program added. Register, All and Lookup are its methods.
var Default = NewCatalog()

// Register adds p to c. It panics on a pattern that does not Validate or
// on a duplicate name (programming errors).
func (c *Catalog) Register(p Pattern) {
	if err := p.Validate(); err != nil {
		panic(err.Error())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.byName[p.Name]; dup {
		panic("pattern: duplicate pattern " + p.Name)
	}
	c.byName[p.Name] = p
}

// Has reports whether c has a pattern named name.
func (c *Catalog) Has(name string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, ok := c.byName[name]
	return ok
}

// All returns every pattern of c, correct ones first, each group sorted
// by name.
func (c *Catalog) All() []Pattern {
	c.mu.RLock()
	out := make([]Pattern, 0, len(c.byName))
	for _, p := range c.byName {
		out = append(out, p)
	}
	c.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].Broken != out[j].Broken {
			return !out[i].Broken
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Lookup returns the pattern of c named name, or an error listing the
// names.
func (c *Catalog) Lookup(name string) (Pattern, error) {
	c.mu.RLock()
	p, ok := c.byName[name]
	c.mu.RUnlock()
	if ok {
		return p, nil
	}
	var names []string
	for _, p := range c.All() {
		names = append(names, p.Name)
	}
	return Pattern{}, fmt.Errorf("unknown pattern %q (known: %s)", name, strings.Join(names, ", "))
}

// Register adds p to Default, typically from an init function (see
// Catalog.Register).
func Register(p Pattern) { Default.Register(p) }

// All returns every pattern of Default (see Catalog.All).
func All() []Pattern { return Default.All() }

// Lookup returns the pattern of Default named name (see Catalog.Lookup).
func Lookup(name string) (Pattern, error) { return Default.Lookup(name) }
