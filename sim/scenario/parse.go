package scenario

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/locksim/locksim/sim/fault"
)

// ParseString parses a scenario from text.
func ParseString(text string) (Scenario, error) { return Parse(strings.NewReader(text)) }

// ErrNotText is the error of input that holds bytes no scenario file
// has: invalid UTF-8 or control characters. The message does not repeat
// the bytes.
var ErrNotText = errors.New("not a text scenario file")

// exampleStart is the start line the errors of a file without one show.
const exampleStart = "start nodes=1 clients=2 ttl=100ms duration=1s"

// ErrEmpty is the error of a scenario file without a directive: empty, or
// only blank lines and comments.
var ErrEmpty = errors.New("empty scenario file")

// Parse reads a scenario. Errors name the line, the directive and the
// field. A UTF-8 byte order mark before the first line is skipped; input
// that is not text fails with ErrNotText, and input without a directive
// (empty, or only blank lines and comments) with ErrEmpty.
func Parse(r io.Reader) (Scenario, error) {
	p := parser{s: Default(), seen: map[string]int{}, shared: map[string]int{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		p.line++
		text := sc.Text()
		if p.line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		if !IsText(text) {
			return Scenario{}, fmt.Errorf("line %d: %w (bytes that are not UTF-8 text)", p.line, ErrNotText)
		}
		if err := p.parseLine(text); err != nil {
			return Scenario{}, fmt.Errorf("line %d: %w", p.line, err)
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return Scenario{}, fmt.Errorf("line %d: %w (a line longer than 1 MiB)", p.line+1, ErrNotText)
	} else if err != nil {
		return Scenario{}, fmt.Errorf("line %d: %w", p.line+1, err)
	}
	if len(p.seen) == 0 {
		return Scenario{}, fmt.Errorf("%w: no directive, only blank lines and comments (want at least a start line, e.g. %s)", ErrEmpty, exampleStart)
	}
	if p.seen["start"] == 0 {
		return Scenario{}, fmt.Errorf("line %d: no start line (e.g. %s)", p.line, exampleStart)
	}
	p.s.fieldLines = p.shared
	if err := p.s.Validate(); err != nil {
		return Scenario{}, err
	}
	return p.s, nil
}

// IsText reports whether line is valid UTF-8 without control characters
// other than tab and carriage return.
func IsText(line string) bool {
	if !utf8.ValidString(line) {
		return false
	}
	for _, r := range line {
		if (r < 0x20 && r != '\t' && r != '\r') || r == 0x7f || r == '\ufeff' {
			return false
		}
	}
	return true
}

type parser struct {
	s    Scenario
	line int
	seen map[string]int // directive → line it was first seen on
	// shared: a field two directives can set (ttl, nodes, retry-delay) →
	// the line that set it
	shared map[string]int
}

func (p *parser) parseLine(raw string) error {
	text, _, _ := strings.Cut(raw, "#")
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return nil
	}
	dir, args := fields[0], fields[1:]
	if first, dup := p.seen[dir]; dup && !isFault(dir) {
		return fmt.Errorf("%s: given twice (first on line %d)", dir, first)
	}
	p.seen[dir] = p.line
	if err := p.checkShared(dir, args); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if dir == "pattern" {
		p.s.patternLine = p.line
	}
	if err := p.directive(dir, args); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	return nil
}

// directive applies one directive's arguments (a dispatch switch).
func (p *parser) directive(dir string, args []string) error {
	switch dir {
	case "scenario":
		return p.parseName(args)
	case "summary":
		p.s.Summary = strings.Join(args, " ")
		return nil
	case "start":
		return keyValues(args, p.startFields())
	case "workload":
		return keyValues(args, p.workloadFields())
	case "net":
		return keyValues(args, p.netFields())
	case "pattern":
		return keyValues(args, p.patternFields())
	case "replicas":
		return keyValues(args, p.replicaFields())
	}
	if !isFault(dir) {
		return fmt.Errorf("unknown directive (known: scenario, summary, start, pattern, workload, net, replicas, and the faults %s)", faultNames())
	}
	if len(p.s.Faults) == MaxFaults { // refused as it is read: each line is at least one occurrence
		return fmt.Errorf("fault line %s, over the limit of %s fault occurrences in a run", thousands(MaxFaults+1), thousands(MaxFaults))
	}
	f, err := parseFault(fault.Kind(dir), args)
	if err == nil {
		p.s.Faults = append(p.s.Faults, f)
		p.s.lines = append(p.s.lines, p.line)
	}
	return err
}

func (p *parser) parseName(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("field name: want one word, got %q", strings.Join(args, " "))
	}
	p.s.Name = args[0]
	return nil
}

func isFault(dir string) bool {
	for _, k := range fault.Kinds {
		if string(k.Kind) == dir {
			return true
		}
	}
	return false
}

func faultNames() string {
	var names []string
	for _, k := range fault.Kinds {
		names = append(names, string(k.Kind))
	}
	return strings.Join(names, ", ")
}

// setter parses one field's value into its destination.
type setter func(v string) error

// keyValues applies key=value fields, naming unknown and repeated keys.
func keyValues(args []string, fields map[string]setter) error {
	seen := map[string]bool{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" {
			return fmt.Errorf("field %q: want key=value", a)
		}
		set, known := fields[k]
		if !known {
			return fmt.Errorf("unknown field %q (known: %s)", k, known2(fields))
		}
		if seen[k] {
			return fmt.Errorf("field %s: given twice", k)
		}
		seen[k] = true
		if err := set(v); err != nil {
			return err
		}
	}
	return nil
}

func known2(fields map[string]setter) string {
	var ks []string
	for k := range fields {
		ks = append(ks, k)
	}
	return strings.Join(sortedStrings(ks), ", ")
}
