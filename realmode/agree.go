package realmode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// AgreeOptions configure an agreement table.
type AgreeOptions struct {
	Patterns  []pattern.Pattern // locksim's patterns: real runs beside simulated seeds
	Libraries []pattern.Pattern // subjects only a client binary knows: real runs only
	Scenarios []scenario.Builtin
	Runs      int // real runs per cell
	SimSeeds  int // simulated seeds per cell
	Parallel  int // real runs at once
	Client    []string
	ClientEnv []string
	// LibraryClient runs the Libraries (a binary with their adapters).
	LibraryClient []string
	// LibraryClients, if set, gives a library its own client program
	// (a reference client of another language), by name.
	LibraryClients map[string][]string
	// Progress, if set, receives one line per cell.
	Progress io.Writer
	// Commit and Build name the binary that makes the cells: each cell
	// records them.
	Commit, Build string
	// Only, if set, selects the cells to run (the others are left out):
	// the stale ones of a table, say.
	Only func(subject, scenario string) bool
	// Done, if set, is called with the cells made so far each time one is
	// made: a long table keeps what it did when a later cell fails or the
	// process is killed. An error from Done ends the table.
	Done func(sofar []Cell) error
}

// Cell is one pattern × scenario.
type Cell struct {
	Pattern  string `json:"pattern"`
	Scenario string `json:"scenario"`
	Sim      Tally  `json:"sim"` // Runs 0 for a library
	Real     Tally  `json:"real"`
	// Refused says why real mode cannot run the scenario ("" if it can).
	Refused string        `json:"refused,omitempty"`
	Wall    time.Duration `json:"wall_ns,omitempty"` // real time the real runs took
	// Source is the run of the table that made the cell: an index into
	// its agreement file's Sources (0 when the file names one run).
	Source int `json:"source,omitempty"`
	// Commit and Build are the commit and build of the binary that made
	// the cell; Claims the claim set it judged (ClaimSet with its bounds,
	// Nodes the subject's node count); Fingerprint the digest of what
	// decided its verdicts (see Fingerprint): a cell whose fingerprint this
	// build does not give is stale, never counted as agreement.
	Commit      string         `json:"commit,omitempty"`
	Build       string         `json:"build,omitempty"`
	Claims      string         `json:"claims,omitempty"` // comma-separated
	ClaimSet    pattern.Claims `json:"claim_set"`
	Nodes       int            `json:"nodes,omitempty"`
	Fingerprint string         `json:"fingerprint,omitempty"`
}

// Agree reports whether the two sides agree on every kind of claim the
// subject makes: both broke it in some run, or neither did (ByKind). A
// cell made before runs were counted by kind agrees when both rates of
// any claim are zero or both non-zero; a library cell, with no simulator
// side, never disagrees.
func (c Cell) Agree() bool {
	if c.Sim.Runs == 0 {
		return true
	}
	if ks, ok := c.ByKind(); ok {
		for _, k := range ks {
			if k.State == KindDisagree {
				return false
			}
		}
		return true
	}
	return (c.Sim.Violated == 0) == (c.Real.Violated == 0)
}

// Agreement runs every cell and returns them in order: patterns by
// scenario, then libraries.
func Agreement(ctx context.Context, o AgreeOptions) ([]Cell, error) {
	var out []Cell
	for _, group := range []struct {
		subjects []pattern.Pattern
		client   []string
		sim      bool
	}{{o.Patterns, o.Client, true}, {o.Libraries, o.LibraryClient, false}} {
		for _, p := range group.subjects {
			for _, b := range o.Scenarios {
				if o.Only != nil && !o.Only(p.Name, b.Name) {
					continue
				}
				client := group.client
				if own, ok := o.LibraryClients[p.Name]; ok && !group.sim {
					client = own
				}
				c, err := agreeCell(ctx, o, p, b, client, group.sim)
				if err != nil {
					return out, err
				}
				if o.Progress != nil {
					fmt.Fprintf(o.Progress, "%-12s %-34s sim %d/%d real %d/%d (failed %d) %s\n", c.Pattern, c.Scenario,
						c.Sim.Violated, c.Sim.Runs, c.Real.Violated, c.Real.Runs, c.Real.Failed, c.Refused)
				}
				out = append(out, c)
				if o.Done != nil {
					if err := o.Done(out); err != nil {
						return out, err
					}
				}
			}
		}
	}
	return out, nil
}

func agreeCell(ctx context.Context, o AgreeOptions, p pattern.Pattern, b scenario.Builtin, client []string, withSim bool) (Cell, error) {
	c := Cell{Pattern: p.Name, Scenario: b.Name, Commit: o.Commit, Build: o.Build,
		Claims: strings.Join(p.Claims.Names(), ","), ClaimSet: p.Claims, Nodes: p.Nodes}
	sc, err := b.Scenario(p.Nodes)
	if err != nil {
		return c, err
	}
	c.Fingerprint = Fingerprint(p, sc, !withSim)
	if err := errors.Join(Supported(sc), supportedFor(sc, Config{Pattern: p, Library: !withSim})); err != nil {
		c.Refused = strings.TrimPrefix(err.Error(), ErrUnsupported.Error()+": ")
		return c, nil
	}
	if withSim {
		if c.Sim, err = simTally(p, sc, o.SimSeeds); err != nil {
			return c, err
		}
	}
	start := time.Now()
	cfg := Config{Pattern: p, Scenario: sc, Seed: 1, Client: client, ClientEnv: o.ClientEnv, Library: !withSim}
	rs, err := RunMany(ctx, cfg, o.Runs, o.Parallel)
	if err != nil && ctx.Err() == nil {
		// The machine is shared: a port taken between a crash and the
		// restart fails the run, not the lock. One more try of the cell.
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "%s under %s: %v; running the cell again\n", p.Name, b.Name, err)
		}
		rs, err = RunMany(ctx, cfg, o.Runs, o.Parallel)
	}
	if err != nil {
		return c, err
	}
	c.Real, c.Wall = Count(rs), time.Since(start)
	return c, nil
}

// simTally runs the simulator's seeds 1..seeds of the same scenario.
func simTally(p pattern.Pattern, sc scenario.Scenario, seeds int) (Tally, error) {
	var t Tally
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		res, err := sim.Run(sim.Config{Pattern: p, Scenario: sc, Seed: seed})
		if err != nil {
			return t, err
		}
		t.Runs++
		t.addViolated(res.Violated)
		if res.FaultsFired() < len(res.Faults) {
			t.Unfired++
		}
	}
	return t, nil
}

// WriteTable writes the cells as markdown: the agreement table of the
// patterns, the libraries' rows, and the scenarios real mode refused.
// Each kind of claim has its own column (runs that broke a claim of it,
// simulator · real), and a cell agrees kind by kind (Cell.ByKind). When
// the cells come from more than one run of the table, each row names its
// run (Source + 1) in a column of its own.
func WriteTable(w io.Writer, cells []Cell) error {
	runCol := slices.ContainsFunc(cells, func(c Cell) bool { return c.Source > 0 })
	head, sep, run := "", "", func(Cell) string { return "" }
	if runCol {
		head, sep = " run |", "---|"
		run = func(c Cell) string { return fmt.Sprintf(" %d |", c.Source+1) }
	}
	kindHead := ""
	for _, k := range Kinds {
		kindHead += " " + k + " |"
	}
	var b strings.Builder
	b.WriteString("| pattern | scenario |" + kindHead + " agree | runs |" + head + "\n|---|---|---|---|---|---|---|" + sep + "\n")
	lib := "\n| library | scenario |" + kindHead + " runs |" + head + "\n|---|---|---|---|---|---|" + sep + "\n"
	hasLib := false
	refused := map[string]string{} // scenario → reason (the last subject's)
	who := map[string][]string{}   // scenario → subjects refused
	var order []string
	agree, total := 0, 0
	for _, c := range cells {
		if c.Refused != "" {
			if _, seen := refused[c.Scenario]; !seen {
				order = append(order, c.Scenario)
			}
			refused[c.Scenario] = c.Refused
			who[c.Scenario] = append(who[c.Scenario], c.Pattern)
			continue
		}
		if c.Sim.Runs == 0 {
			hasLib = true
			lib += fmt.Sprintf("| %s | %s |%s %s |%s\n", c.Pattern, c.Scenario, libraryKinds(c), runsText(c), run(c))
			continue
		}
		total++
		word := "**no** (" + strings.Join(c.Disagreeing(), ", ") + ")"
		if c.Agree() {
			agree++
			word = "yes"
		}
		fmt.Fprintf(&b, "| %s | %s |%s %s | %s |%s\n", c.Pattern, c.Scenario, patternKinds(c), word, runsText(c), run(c))
	}
	fmt.Fprintf(&b, "\n%d of %d cells agree on every kind of claim.\n", agree, total)
	if hasLib {
		b.WriteString(lib)
	}
	if len(order) > 0 {
		b.WriteString("\nScenarios real mode refused, and for which subjects:\n\n")
		for _, s := range order {
			fmt.Fprintf(&b, "- `%s` (%s): %s\n", s, strings.Join(who[s], ", "), refused[s])
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// patternKinds is a pattern row's kind columns: "—" for a kind the
// pattern does not claim; for a cell made before runs were counted by
// kind, its rates of any claim in the runs column instead.
func patternKinds(c Cell) string {
	ks, ok := c.ByKind()
	out := ""
	for _, k := range Kinds {
		i := slices.IndexFunc(ks, func(a KindAgreement) bool { return a.Kind == k })
		switch {
		case !ok:
			out += " not counted |"
		case i < 0:
			out += " — |"
		default:
			out += " " + kindText(c, ks[i]) + " |"
		}
	}
	return out
}

// libraryKinds is a library row's kind columns: real runs that broke a
// claim of each kind the library makes.
func libraryKinds(c Cell) string {
	ks, ok := c.ByKind()
	out := ""
	for _, k := range Kinds {
		i := slices.IndexFunc(ks, func(a KindAgreement) bool { return a.Kind == k })
		switch {
		case !ok:
			out += " not counted |"
		case i < 0:
			out += " — |"
		default:
			out += fmt.Sprintf(" %d/%d |", ks[i].Real, c.Real.Runs-c.Real.Failed)
		}
	}
	return out
}

// runsText is a row's runs column: the runs on each side, with the rate
// of any claim and what made a run count for less (client failures,
// faults unfired, claims not judged, a descheduled client).
func runsText(c Cell) string {
	s := "real " + rateText(c.Real)
	if c.Sim.Runs > 0 {
		s = "sim " + rateText(c.Sim) + "; " + s
	}
	return s
}

// rateText is "k/n (p%, 95% lo–hi%)", with client failures noted.
func rateText(t Tally) string {
	p, lo, hi := t.Rate()
	s := fmt.Sprintf("%d/%d (%.0f%%, %.0f–%.0f%%)", t.Violated, t.Runs-t.Failed, 100*p, 100*lo, 100*hi)
	if t.Failed > 0 {
		s += fmt.Sprintf(", %d client failure(s)", t.Failed)
	}
	if t.Unfired > 0 {
		s += fmt.Sprintf(", %d with a fault unfired", t.Unfired)
	}
	if t.NotJudged > 0 {
		s += fmt.Sprintf(", %d with a claim not judged", t.NotJudged)
	}
	if t.Descheduled > 0 {
		s += fmt.Sprintf(", %d descheduled", t.Descheduled)
	}
	return s
}
