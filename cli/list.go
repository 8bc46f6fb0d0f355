package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// listing is what `locksim list --json` prints.
type listing struct {
	Format    string        `json:"format"`
	Patterns  []patternInfo `json:"patterns"`
	Broken    []patternInfo `json:"broken"`
	Scenarios []namedInfo   `json:"scenarios"`
	Faults    []namedInfo   `json:"faults"`
	Triggers  []namedInfo   `json:"triggers"`
	// Clients are the libraries of other languages real mode judges
	// through the reference clients of clients/.
	Clients []patternInfo `json:"clients"`
}

type patternInfo struct {
	Name    string   `json:"name"`
	Nodes   int      `json:"nodes"`
	Claims  []string `json:"claims"`
	Summary string   `json:"summary"`
	Pitfall string   `json:"pitfall,omitempty"`
}

type namedInfo struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
}

// scenarioInfos lists the simulator's built-in scenarios.
func scenarioInfos() []namedInfo {
	var out []namedInfo
	for _, b := range scenario.Builtins() {
		out = append(out, namedInfo{Name: b.Name, Summary: b.Summary})
	}
	return out
}

// faultInfos lists the simulator's fault kinds.
func faultInfos() []namedInfo {
	var out []namedInfo
	for _, k := range fault.Kinds {
		out = append(out, namedInfo{Name: string(k.Kind), Summary: k.Summary})
	}
	return out
}

// triggerInfos lists the simulator's fault triggers.
func triggerInfos() []namedInfo {
	var out []namedInfo
	for _, t := range fault.Triggers {
		out = append(out, namedInfo{Name: t.Name, Summary: t.Summary})
	}
	return out
}

func newListCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List patterns (with what each claims), broken variants, scenarios, fault kinds and fault triggers",
		Example: `  locksim list
  locksim list --json | jq '.broken[].name'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			l := buildListing()
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), l)
			}
			return printListing(cmd.OutOrStdout(), l)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func buildListing() listing {
	l := listing{Format: formatList}
	for _, p := range pattern.All() {
		info := patternInfo{Name: p.Name, Nodes: p.Nodes, Claims: p.Claims.Names(), Summary: p.Summary, Pitfall: p.Pitfall}
		if p.Broken {
			l.Broken = append(l.Broken, info)
		} else {
			l.Patterns = append(l.Patterns, info)
		}
	}
	l.Scenarios = scenarioInfos()
	l.Faults = faultInfos()
	l.Triggers = triggerInfos()
	for _, c := range langClients {
		l.Clients = append(l.Clients, patternInfo{Name: c.Name, Nodes: c.Nodes, Claims: c.Claims.Names(), Summary: c.Summary})
	}
	return l
}

func printListing(w io.Writer, l listing) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATTERN\tNODES\tCLAIMS\tSUMMARY")
	for _, p := range l.Patterns {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", p.Name, p.Nodes, strings.Join(p.Claims, ","), p.Summary)
	}
	if len(l.Broken) > 0 {
		fmt.Fprintln(tw, "\nBROKEN VARIANT\tNODES\tIMITATES\tPITFALL")
		for _, p := range l.Broken {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", p.Name, p.Nodes, strings.Join(p.Claims, ","), p.Pitfall)
		}
	}
	if len(l.Clients) > 0 {
		fmt.Fprintln(tw, "\nCLIENT (real mode)\tNODES\tCLAIMS\tSUMMARY")
		for _, p := range l.Clients {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", p.Name, p.Nodes, strings.Join(p.Claims, ","), p.Summary)
		}
	}
	for _, sec := range []struct {
		title string
		items []namedInfo
	}{{"SCENARIO", l.Scenarios}, {"FAULT", l.Faults}, {"TRIGGER", l.Triggers}} {
		if len(sec.items) == 0 {
			continue
		}
		fmt.Fprintf(tw, "\n%s\tDESCRIPTION\n", sec.title)
		for _, s := range sec.items {
			fmt.Fprintf(tw, "%s\t%s\n", s.Name, s.Summary)
		}
	}
	return tw.Flush()
}
