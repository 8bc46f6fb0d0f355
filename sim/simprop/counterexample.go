package simprop

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// Counterexample is a case under which a pattern broke a property.
type Counterexample struct {
	Property  Property
	Pattern   string
	Case      Case
	Violation string
}

// File is the counterexample's file name: <pattern>.<property>.txt.
func (c Counterexample) File() string { return c.Pattern + "." + c.Property.Name + ".txt" }

// Replay is the command that replays the counterexample written at path.
func (c Counterexample) Replay(path string) string {
	cmd := fmt.Sprintf("locksim run --pattern %s --scenario %s --seed %d", c.Pattern, path, c.Case.Seed)
	if c.Property.Nested {
		cmd += "   (" + nestNote + ")"
	}
	return cmd
}

// nestNote says why locksim run alone does not replay a nested property.
const nestNote = "every section of this property re-enters the lock and leaves the inner entry at once (simprop.Nested), which locksim run does not do: replay it with simprop.Replay"

// Text is the scenario file: comment lines naming the property, the
// violation and the replay command, then the scenario.
func (c Counterexample) Text(path string) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# counterexample: %s breaks property %s (%d fault(s))\n", c.Pattern, c.Property.Name, len(c.Case.Scenario.Faults))
	fmt.Fprintf(&b, "# claim: %s\n", c.Property.Claim)
	fmt.Fprintf(&b, "# violation: %s\n", c.Violation)
	fmt.Fprintf(&b, "# replay: %s\n", c.Replay(path))
	_ = scenario.Write(&b, c.Case.Scenario) // a bytes.Buffer does not fail
	return b.String()
}

// Save writes the counterexample into dir (created if need be) and
// returns the file's path.
func (c Counterexample) Save(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("simprop: counterexample directory: %w", err)
	}
	path := filepath.Join(dir, c.File())
	return path, c.WriteFile(path, path)
}

// WriteFile writes the counterexample to path; shown is the path its
// replay comment names (e.g. relative to the repository's root).
func (c Counterexample) WriteFile(path, shown string) error {
	if err := os.WriteFile(path, []byte(c.Text(shown)), 0o644); err != nil {
		return fmt.Errorf("simprop: write counterexample: %w", err)
	}
	return nil
}

// Report is the failure message: the violation, the schedule, where the
// scenario was written and how to replay it.
func (c Counterexample) Report(path string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s breaks property %s under %d fault(s), seed %d:\n  %s\n", c.Pattern, c.Property.Name,
		len(c.Case.Scenario.Faults), c.Case.Seed, c.Violation)
	for _, f := range c.Case.Scenario.Faults {
		fmt.Fprintf(&b, "  %s\n", scenario.FormatFault(f))
	}
	if path != "" {
		fmt.Fprintf(&b, "scenario written to %s\nreplay: %s", path, c.Replay(path))
	}
	return b.String()
}

// Load reads a counterexample file back: the scenario (validated) and the
// seed, pattern and property named in its replay comment.
func Load(path string) (Counterexample, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Counterexample{}, fmt.Errorf("simprop: %w", err)
	}
	sc, err := scenario.Parse(bytes.NewReader(data))
	if err != nil {
		return Counterexample{}, fmt.Errorf("simprop: %s: %w", path, err)
	}
	var c Counterexample
	var prop string
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "# counterexample: "); ok {
			_, _ = fmt.Sscanf(rest, "%s breaks property %s", &c.Pattern, &prop)
		}
		if rest, ok := strings.CutPrefix(line, "# replay: "); ok {
			fields := strings.Fields(rest)
			for i := 0; i+1 < len(fields); i++ {
				if fields[i] == "--seed" {
					_, _ = fmt.Sscan(fields[i+1], &c.Case.Seed)
				}
			}
		}
		if rest, ok := strings.CutPrefix(line, "# violation: "); ok {
			c.Violation = rest
		}
	}
	if c.Property, err = Lookup(prop); err != nil {
		return Counterexample{}, fmt.Errorf("simprop: %s: no counterexample header: %w", path, err)
	}
	c.Case.Scenario = sc
	return c, nil
}

// Replay runs a loaded counterexample again on the pattern it names (or
// on another, e.g. the correct pattern a variant imitates) and returns
// the violation the property's judge sees now, or "".
func Replay(c Counterexample, name string) (string, error) {
	p, err := pattern.Lookup(name)
	if err != nil {
		return "", err
	}
	_, v, err := c.Property.Run(p, c.Case)
	return v, err
}
