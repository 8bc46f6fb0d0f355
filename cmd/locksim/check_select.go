package main

import (
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

// apply returns m narrowed by the flags; with none, m as it is (a file
// given by --expect is partial, and completed by --unlisted).
func (s selectFlags) apply(m *gate.Matrix) (*gate.Matrix, error) {
	switch gate.Unlisted(s.unlisted) {
	case gate.UnlistedHolds, gate.UnlistedSkip:
	default:
		return nil, usagef("--unlisted %q: want holds or skip", s.unlisted)
	}
	sel := gate.Selection{Patterns: list(s.patterns), Scenarios: list(s.scenarios), Unlisted: gate.Unlisted(s.unlisted)}
	if !m.Partial && len(sel.Patterns) == 0 && len(sel.Scenarios) == 0 {
		return m, nil
	}
	out, err := m.Select(sel)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return out, nil
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
