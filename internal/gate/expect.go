package gate

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/broken"
	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// Verdict is what a line expects of a claim over a cell's seeds.
type Verdict string

// Verdicts.
const (
	Holds  Verdict = "holds"  // no seed breaks the claim
	Breaks Verdict = "breaks" // at least one seed breaks it
	May    Verdict = "may"    // recorded, not run, not gated
)

// Expectation is one line of the matrix: a pattern under a built-in
// scenario holds, breaks or may break some claims.
type Expectation struct {
	Line     int
	Pattern  string
	Scenario string
	Verdict  Verdict
	Claims   []string
	Seeds    int    // seeds=N; 0: the check's default
	Why      string // the line's comment
}

// Variant says which correct pattern a broken variant imitates.
type Variant struct {
	Line int
	Name string // the broken variant
	Of   string // the correct pattern
	// Exempt marks a variant the simulator cannot catch yet; Why (the
	// line's comment, required) says why and where else it is caught.
	Exempt bool
	Why    string
}

// Matrix is a parsed expectations file.
type Matrix struct {
	Source   string // file name, for messages
	SHA256   string // of the file's content, recorded in what the check makes
	Expect   []Expectation
	Variants []Variant
	// Partial marks a matrix that is not the whole of locksim's (a user's
	// file, or a selection): no line is asked of unlisted cells, and only
	// the variants it names must be caught (see Select).
	Partial bool
	// files are the scenarios the lines name by path, by scenario name.
	files map[string]explore.Scenario
}

//go:embed expectations.txt
var defaultText string

// DefaultSource names the embedded matrix in messages.
const DefaultSource = "internal/gate/expectations.txt"

// Default returns the embedded matrix.
func Default() (*Matrix, error) { return Parse(DefaultSource, strings.NewReader(defaultText)) }

// DefaultText is the embedded matrix's text.
func DefaultText() string { return defaultText }

// Parse reads an expectations file; errors read "source:line: problem".
// A scenario field that is neither a built-in's nor one of the gate's own
// names is a scenario file's path, relative to the working directory. A
// UTF-8 byte order mark before the first line is skipped.
func Parse(source string, r io.Reader) (*Matrix, error) { return parse(source, ".", r) }

// ParseFile reads the expectations file at path, a user's matrix: Partial,
// its scenario paths relative to the file's directory.
func ParseFile(path string) (*Matrix, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := parse(path, filepath.Dir(path), f)
	if err != nil {
		return nil, err
	}
	m.Partial = true
	return m, nil
}

func parse(source, dir string, r io.Reader) (*Matrix, error) {
	p := parser{m: &Matrix{Source: source, files: map[string]explore.Scenario{}}, dir: dir, paths: map[string]string{},
		seen: map[string]int{}, cellSeeds: map[string]seedsAt{}, variants: map[string]int{}}
	h := sha256.New()
	sc := bufio.NewScanner(io.TeeReader(r, h))
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff") // a UTF-8 byte order mark
		}
		if !scenario.IsText(text) {
			return nil, fmt.Errorf("%s:%d: not a text expectations file (bytes that are not UTF-8 text)", source, line)
		}
		if err := p.parseLine(line, text); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", source, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", source, line+1, err)
	}
	if len(p.m.Expect) == 0 {
		return nil, fmt.Errorf("%s: no expectations", source)
	}
	p.m.SHA256 = hex.EncodeToString(h.Sum(nil))
	return p.m, nil
}

type seedsAt struct{ seeds, line int }

type parser struct {
	m         *Matrix
	dir       string             // scenario paths are relative to it
	paths     map[string]string  // scenario name of a file → its absolute path
	seen      map[string]int     // pattern scenario claim → line
	cellSeeds map[string]seedsAt // pattern scenario → seeds= of its first gated line
	variants  map[string]int     // variant → line
}

func (p *parser) parseLine(line int, raw string) error {
	text, why, _ := strings.Cut(raw, "#")
	fields := strings.Fields(text)
	switch {
	case len(fields) == 0:
		return nil
	case fields[0] == "variant":
		return p.parseVariant(line, fields, strings.TrimSpace(why))
	}
	e, err := p.parseExpectation(fields)
	if err != nil {
		return err
	}
	e.Line, e.Why = line, strings.TrimSpace(why)
	if err := p.record(e); err != nil {
		return err
	}
	p.m.Expect = append(p.m.Expect, e)
	return nil
}

// parseExpectation reads "pattern scenario verdict claims [seeds=N]".
func (ps *parser) parseExpectation(f []string) (Expectation, error) {
	if len(f) < 4 || len(f) > 5 {
		return Expectation{}, fmt.Errorf("%d fields, want: pattern scenario holds|breaks|may claim[,claim] [seeds=N]", len(f))
	}
	e := Expectation{Pattern: f[0], Scenario: f[1], Verdict: Verdict(f[2]), Claims: strings.Split(f[3], ",")}
	p, err := broken.Catalog().Lookup(e.Pattern)
	if err != nil {
		return e, err
	}
	if e.Scenario, err = ps.scenario(f[1]); err != nil {
		return e, err
	}
	if e.Verdict != Holds && e.Verdict != Breaks && e.Verdict != May {
		return e, fmt.Errorf("verdict %q, want holds, breaks or may", f[2])
	}
	if err := checkClaims(p, e.Claims); err != nil {
		return e, err
	}
	if len(f) == 5 {
		v, ok := strings.CutPrefix(f[4], "seeds=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil || n < 1 {
			return e, fmt.Errorf("%q: want seeds=N with N ≥ 1", f[4])
		}
		e.Seeds = n
	}
	return e, nil
}

// checkClaims accepts the claims p makes, and the liveness properties
// every cell counts (explore.Liveness).
func checkClaims(p pattern.Pattern, claims []string) error {
	own := explore.ClaimNames(p.Claims)
	for _, c := range claims {
		if !slices.Contains(explore.Liveness, c) && !slices.Contains(own, c) {
			return fmt.Errorf("claim %q: %s claims %s (or give %s)", c, p.Name, orNothing(own), strings.Join(explore.Liveness, " or "))
		}
	}
	return nil
}

func orNothing(claims []string) string {
	if len(claims) == 0 {
		return "nothing"
	}
	return strings.Join(claims, ", ")
}

// record rejects a claim expected twice of one cell, and one cell given
// two seed budgets.
func (p *parser) record(e Expectation) error {
	cell := e.Pattern + " " + e.Scenario
	for _, c := range e.Claims {
		key := cell + " " + c
		if first, dup := p.seen[key]; dup {
			return fmt.Errorf("%s under %s: claim %s already expected on line %d", e.Pattern, e.Scenario, c, first)
		}
		p.seen[key] = e.Line
	}
	if e.Verdict == May {
		return nil
	}
	if prev, ok := p.cellSeeds[cell]; ok && prev.seeds != e.Seeds {
		return fmt.Errorf("%s under %s: seeds=%d, but line %d gives the cell seeds=%d", e.Pattern, e.Scenario, e.Seeds, prev.line, prev.seeds)
	}
	p.cellSeeds[cell] = seedsAt{seeds: e.Seeds, line: e.Line}
	return nil
}

// parseVariant reads "variant V of P [exempt]".
func (p *parser) parseVariant(line int, f []string, why string) error {
	if len(f) < 4 || len(f) > 5 || f[2] != "of" || len(f) == 5 && f[4] != "exempt" {
		return fmt.Errorf("want: variant BROKEN of PATTERN [exempt]")
	}
	exempt := len(f) == 5
	if exempt && why == "" {
		return fmt.Errorf("variant %s: exempt needs a comment saying why it cannot be caught here", f[1])
	}
	v, err := broken.Catalog().Lookup(f[1])
	if err != nil {
		return err
	}
	of, err := broken.Catalog().Lookup(f[3])
	if err != nil {
		return err
	}
	switch {
	case !v.Broken:
		return fmt.Errorf("variant %s: not a broken variant", v.Name)
	case of.Broken:
		return fmt.Errorf("variant %s of %s: %s is itself a broken variant", v.Name, of.Name, of.Name)
	}
	if first, dup := p.variants[v.Name]; dup {
		return fmt.Errorf("variant %s: already given on line %d", v.Name, first)
	}
	p.variants[v.Name] = line
	p.m.Variants = append(p.m.Variants, Variant{Line: line, Name: v.Name, Of: of.Name, Exempt: exempt, Why: why})
	return nil
}

// scenario resolves a line's scenario field to the scenario's name: a
// built-in's or one of the gate's own names, or else a scenario file's path
// (relative to the matrix's directory), whose scenario is named by its
// scenario line or after the file. A file's name may not be a built-in's,
// nor another file's.
func (p *parser) scenario(field string) (string, error) {
	sc, err := lookupScenario(field)
	if err == nil {
		return sc.Name, nil
	}
	path := field
	if !filepath.IsAbs(path) {
		path = filepath.Join(p.dir, field)
	}
	abs, absErr := filepath.Abs(path)
	if _, statErr := os.Stat(abs); absErr != nil || errors.Is(statErr, fs.ErrNotExist) {
		return "", fmt.Errorf("%w; nor a scenario file (%s)", err, path)
	}
	file, err := explore.FromFile(abs)
	if err != nil {
		return "", fmt.Errorf("scenario file: %w", err)
	}
	if prev, ok := p.paths[file.Name]; ok && prev != abs {
		return "", fmt.Errorf("scenario file %s: scenario %q, as %s", field, file.Name, prev)
	}
	if _, err := lookupScenario(file.Name); err == nil {
		return "", fmt.Errorf("scenario file %s: scenario %q, a built-in's name (rename it in its scenario line)", field, file.Name)
	}
	p.paths[file.Name] = abs
	p.m.files[file.Name] = file
	return file.Name, nil
}

// scenario returns the scenario named name: a file the lines named, a
// built-in or one of the gate's own.
func (m *Matrix) scenario(name string) (explore.Scenario, error) {
	if sc, ok := m.files[name]; ok {
		return sc, nil
	}
	return lookupScenario(name)
}
