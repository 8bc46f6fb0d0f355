package explore

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/broken"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// Scenario is a scenario to explore: a built-in or one read from a file.
type Scenario struct {
	// Name is the scenario's name as results show it.
	Name string
	// Arg is what `locksim run --scenario` takes to replay it: the
	// built-in's name or the file's path.
	Arg string
	// SHA256 is the hex sha256 of the file the scenario was read from;
	// empty for a built-in, whose canonical text is hashed instead.
	SHA256 string
	make   func(nodes int) (scenario.Scenario, error)
}

// Builtin returns the built-in scenario named name.
func Builtin(name string) (Scenario, error) {
	for _, b := range scenario.Builtins() {
		if b.Name == name {
			return Scenario{Name: b.Name, Arg: b.Name, make: b.Scenario}, nil
		}
	}
	_, err := scenario.Lookup(name, 1) // its message lists the built-ins
	return Scenario{}, err
}

// Builtins returns every built-in scenario, sorted by name.
func Builtins() []Scenario {
	var out []Scenario
	for _, b := range scenario.Builtins() {
		out = append(out, Scenario{Name: b.Name, Arg: b.Name, make: b.Scenario})
	}
	return out
}

// FromFile returns the scenario parsed from the file at path, named after
// its scenario line or, without one, after the file.
func FromFile(path string) (Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Scenario{}, err
	}
	sc, err := scenario.Parse(bytes.NewReader(data))
	if err != nil {
		return Scenario{}, fmt.Errorf("%s: %w", path, err)
	}
	if sc.Name == "" {
		sc.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return Parsed(path, sc, data), nil
}

// Parsed returns sc, parsed elsewhere from data, as a scenario to explore;
// arg is what `locksim run --scenario` takes to replay it (the file's
// path). The report records data's hash.
func Parsed(arg string, sc scenario.Scenario, data []byte) Scenario {
	return Scenario{Name: sc.Name, Arg: arg, SHA256: Hash(data), make: sc.Resolve}
}

// ResolveScenarios reads a --scenario argument: "all" (every built-in),
// or a comma-separated list of built-in names and scenario file paths.
func ResolveScenarios(arg string) ([]Scenario, error) {
	if arg == "all" {
		return Builtins(), nil
	}
	var out []Scenario
	for _, a := range strings.Split(arg, ",") {
		sc, err := resolveScenario(strings.TrimSpace(a))
		if err != nil {
			return nil, err
		}
		out = append(out, sc)
	}
	return out, nil
}

// resolveScenario reads a built-in's or registered scenario's name or,
// failing that, a file.
func resolveScenario(arg string) (Scenario, error) {
	sc, err := Named(arg)
	if err == nil {
		return sc, nil
	}
	if _, statErr := os.Stat(arg); statErr != nil {
		return Scenario{}, err
	}
	return FromFile(arg)
}

// ResolvePatterns reads a --pattern argument: "all" (every pattern in the
// catalog, correct ones first) or a comma-separated list of names.
func ResolvePatterns(arg string) ([]pattern.Pattern, error) {
	if arg == "all" {
		return broken.Catalog().All(), nil
	}
	var out []pattern.Pattern
	for _, name := range strings.Split(arg, ",") {
		p, err := broken.Catalog().Lookup(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Seeds is a range of seeds: Start, Start+1, ..., Start+Count-1.
type Seeds struct {
	Start uint64 `json:"start"`
	Count int    `json:"count"`
}

// Validate checks the range.
func (s Seeds) Validate() error {
	if s.Count <= 0 {
		return fmt.Errorf("seeds: %d, want at least 1", s.Count)
	}
	if s.Start+uint64(s.Count)-1 < s.Start {
		return fmt.Errorf("seed-start: %d + %d seeds overflows a uint64", s.Start, s.Count)
	}
	return nil
}

// Shard is one of N parts of every cell's seeds: those with seed % N == I.
// The zero Shard is the whole range.
type Shard struct{ I, N int }

// ParseShard reads "i/n" with 0 ≤ i < n.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, errI := strconv.Atoi(a)
	n, errN := strconv.Atoi(b)
	if !ok || errI != nil || errN != nil {
		return Shard{}, fmt.Errorf("shard %q: want i/n, e.g. 0/4", s)
	}
	sh := Shard{I: i, N: n}
	if n < 1 {
		return Shard{}, fmt.Errorf("shard %q: n is %d, want at least 1", s, n)
	}
	if err := sh.Validate(); err != nil {
		return Shard{}, fmt.Errorf("shard %q: %w", s, err)
	}
	return sh, nil
}

// Validate checks 0 ≤ I < N; the zero Shard (every seed) is valid too.
func (sh Shard) Validate() error {
	switch {
	case sh == Shard{}:
		return nil
	case sh.N < 1:
		return fmt.Errorf("n is %d, want at least 1", sh.N)
	case sh.I < 0 || sh.I >= sh.N:
		return fmt.Errorf("i is %d, want 0 ≤ i < %d", sh.I, sh.N)
	}
	return nil
}

func (sh Shard) String() string {
	if sh.N == 0 {
		return "all"
	}
	return fmt.Sprintf("%d/%d", sh.I, sh.N)
}

// span returns the lowest seed of s in shard sh, and how many seeds of s
// the shard holds.
func (sh Shard) span(s Seeds) (first uint64, count int) {
	if sh.N <= 1 {
		return s.Start, s.Count
	}
	n := uint64(sh.N)
	off := (uint64(sh.I) + n - s.Start%n) % n
	if off >= uint64(s.Count) {
		return 0, 0
	}
	return s.Start + off, int((uint64(s.Count)-off-1)/n + 1)
}

// seed returns the k-th seed (from 0) of s in shard sh.
func (sh Shard) seed(s Seeds, k int) uint64 {
	first, _ := sh.span(s)
	return first + uint64(k)*uint64(max(sh.N, 1))
}

// Cell is one pattern under one scenario over a range of seeds.
type Cell struct {
	Pattern  pattern.Pattern
	Scenario Scenario
	Seeds    Seeds
	resolved scenario.Scenario
}

// NewCell builds a cell, resolving the scenario for the pattern's nodes.
func NewCell(p pattern.Pattern, sc Scenario, seeds Seeds) (Cell, error) {
	if err := seeds.Validate(); err != nil {
		return Cell{}, err
	}
	if sc.make == nil {
		return Cell{}, fmt.Errorf("scenario %q was not made by Builtin or FromFile", sc.Name)
	}
	res, err := sc.make(p.Nodes)
	if err != nil {
		return Cell{}, fmt.Errorf("scenario %s for pattern %s (%d nodes): %w", sc.Name, p.Name, p.Nodes, err)
	}
	res.Name = sc.Name
	return Cell{Pattern: p, Scenario: sc, Seeds: seeds, resolved: res}, nil
}

// Grid builds every pattern × scenario cell, patterns outermost.
func Grid(patterns []pattern.Pattern, scenarios []Scenario, seeds Seeds) ([]Cell, error) {
	var out []Cell
	for _, p := range patterns {
		for _, sc := range scenarios {
			c, err := NewCell(p, sc, seeds)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	}
	return out, nil
}
