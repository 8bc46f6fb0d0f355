package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/locksim/locksim/internal/gate"
)

// selectFlags narrow the gate's matrix: locksim check --pattern, --scenario
// and --unlisted.
type selectFlags struct {
	patterns, scenarios, unlisted string
}

func (s *selectFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&s.patterns, "pattern", "", "check only the lines of these patterns (comma-separated)")
	fl.StringVar(&s.scenarios, "scenario", "", "check only the lines of these scenarios (names or the files' paths, comma-separated)")
	fl.StringVar(&s.unlisted, "unlisted", string(gate.UnlistedHolds), "what a partial matrix expects of claims no line mentions: holds or skip")
}

// selection is what --pattern and --scenario kept of the matrix: the
// lines judged and the lines skipped (expectation and variant lines, and
// the holds lines --unlisted holds adds to a partial matrix).
type selection struct {
	Source  string `json:"source"`
	Judged  int    `json:"judged"`
	Skipped int    `json:"skipped"`
}

// write says what the selection kept, as the first line of the text.
func (s *selection) write(w io.Writer) {
	if s != nil {
		fmt.Fprintf(w, "selection: %d of the %d lines of %s judged, %d skipped\n", s.Judged, s.Judged+s.Skipped, s.Source, s.Skipped)
	}
}

// apply returns m narrowed by the flags, and what the narrowing kept (nil
// without --pattern and --scenario). A partial matrix (a file given by
// --expect) is first completed as --unlisted says, as a check of the
// whole file would be; the selection then keeps the lines of the chosen
// patterns and scenarios of that, and adds none: it judges exactly the
// lines the whole check would judge for them. Variant lines name no
// scenario, so a --scenario selection skips them (whether a variant is
// caught depends on the lines of every scenario).
func (s selectFlags) apply(m *gate.Matrix) (*gate.Matrix, *selection, error) {
	switch gate.Unlisted(s.unlisted) {
	case gate.UnlistedHolds, gate.UnlistedSkip:
	default:
		return nil, nil, usagef("--unlisted %q: want holds or skip", s.unlisted)
	}
	var err error
	if m.Partial {
		if m, err = m.Select(gate.Selection{Unlisted: gate.Unlisted(s.unlisted)}); err != nil {
			return nil, nil, usagef("%v", err)
		}
	}
	sel := gate.Selection{Patterns: list(s.patterns), Scenarios: list(s.scenarios), Unlisted: gate.UnlistedSkip}
	if len(sel.Patterns) == 0 && len(sel.Scenarios) == 0 {
		return m, nil, nil
	}
	out, err := m.Select(sel)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	if len(sel.Scenarios) > 0 {
		out.Variants = nil
	}
	total, kept := len(m.Expect)+len(m.Variants), len(out.Expect)+len(out.Variants)
	return out, &selection{Source: m.Source, Judged: kept, Skipped: total - kept}, nil
}

// list splits a comma-separated flag value, dropping empty items.
func list(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
