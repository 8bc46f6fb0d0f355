package gate

import (
	"context"
	"fmt"

	"github.com/locksim/locksim/internal/broken"
	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/sim"
)

// Options tune Check.
type Options struct {
	// Seeds is the seed count of a cell whose lines give no seeds=N;
	// every cell's seeds start at 1.
	Seeds int
	// Parallel, Progress and Run are passed to explore.Run.
	Parallel int
	Progress func(done, total int)
	Run      func(sim.Config) (*sim.Result, error)
}

// Outcome is one claim of one gated line, as run.
type Outcome struct {
	Line      int           `json:"line"`
	Pattern   string        `json:"pattern"`
	Scenario  string        `json:"scenario"`
	Arg       string        `json:"scenario_arg"` // what locksim run --scenario takes
	Expect    Verdict       `json:"expect"`
	Claim     string        `json:"claim"`
	Seeds     explore.Seeds `json:"seeds"`
	Runs      int           `json:"runs"`
	Broke     int           `json:"broke"` // runs that broke the claim
	FirstSeed *uint64       `json:"first_seed,omitempty"`
	OK        bool          `json:"ok"`
	Why       string        `json:"why,omitempty"`
}

// Replay is the command that reruns the lowest seed that broke the claim,
// or, when none did, the exploration of the cell's seeds, each quoted for
// a shell.
func (o Outcome) Replay() string {
	if o.FirstSeed != nil {
		return explore.ReplayCommand(o.Pattern, o.Arg, *o.FirstSeed)
	}
	return fmt.Sprintf("%s explore --pattern %s --scenario %s --seeds %d --seed-start %d", explore.Command(),
		explore.ShellQuote(o.Pattern), explore.ShellQuote(o.Arg), o.Seeds.Count, o.Seeds.Start)
}

// Catch is how a broken variant was caught, or that it was not.
type Catch struct {
	Variant  string  `json:"variant"`
	Of       string  `json:"of"`
	Caught   bool    `json:"caught"`
	Scenario string  `json:"scenario,omitempty"`
	Claim    string  `json:"claim,omitempty"`
	Seed     *uint64 `json:"seed,omitempty"` // the variant's lowest breaking seed
	Exempt   bool    `json:"exempt,omitempty"`
	Why      string  `json:"why,omitempty"` // why an exempt variant is not caught here
}

// Deviation is one way the run differs from the matrix.
type Deviation struct {
	Line     int    `json:"line,omitempty"` // 0: about the matrix as a whole
	What     string `json:"what"`
	Expected string `json:"expected"`
	Seen     string `json:"seen"`
	Replay   string `json:"replay,omitempty"`
}

// Result is a check's verdict.
type Result struct {
	// Made names the locksim and the expectations file (with its sha256).
	Made       explore.Provenance `json:"made_from"`
	Source     string             `json:"expectations"`
	Seeds      int                `json:"seeds"` // the default per cell
	Cells      int                `json:"cells"`
	Runs       int                `json:"runs"`
	NotGated   int                `json:"not_gated"` // "may" lines
	Checks     []Outcome          `json:"checks"`
	Variants   []Catch            `json:"variants"`
	Deviations []Deviation        `json:"deviations"`
	// Partial is set when the check was stopped: only the lines whose
	// cells ran every seed are judged, and the result is no verdict.
	Partial *explore.Partial `json:"partial,omitempty"`
}

// OK reports whether nothing deviated in a complete check.
func (r *Result) OK() bool { return len(r.Deviations) == 0 && r.Partial == nil }

// The verdicts of a check (Result.Verdict).
const (
	Passed      = "passed"      // complete, nothing deviated
	Failed      = "failed"      // complete, something deviated
	Interrupted = "interrupted" // stopped: no verdict on the matrix, whatever the checks that ran say
)

// Verdict is Passed, Failed or Interrupted: a partial check neither
// passes nor fails, however its finished lines came out.
func (r *Result) Verdict() string {
	switch {
	case r.Partial != nil:
		return Interrupted
	case r.OK():
		return Passed
	}
	return Failed
}

// Check runs every gated cell of m and compares what it sees with m. The
// error is for a check that could not run; deviations are in the Result.
// Stopped by ctx, it returns ctx's error and, beside it, a Partial result
// that judges the lines whose cells finished.
func Check(ctx context.Context, m *Matrix, opt Options) (*Result, error) {
	if opt.Seeds < 1 {
		return nil, fmt.Errorf("gate: seeds %d, want at least 1", opt.Seeds)
	}
	cells, err := gatedCells(m, opt.Seeds)
	if err != nil {
		return nil, err
	}
	rep, err := explore.Run(ctx, cells, explore.Options{Parallel: opt.Parallel, Progress: opt.Progress, Run: opt.Run,
		Expectations: &explore.File{Path: m.Source, SHA256: m.SHA256}})
	if rep == nil {
		return nil, err
	}
	res := &Result{Made: rep.Made, Source: m.Source, Seeds: opt.Seeds, Cells: len(cells), Checks: []Outcome{}, Variants: []Catch{}, Deviations: []Deviation{},
		Partial: rep.Partial}
	for _, c := range rep.Cells {
		res.Runs += c.Runs
	}
	res.judge(m, rep)
	return res, err
}

// gatedCells builds one cell per pattern × scenario of the holds and
// breaks lines, in the order they first appear.
func gatedCells(m *Matrix, seeds int) ([]explore.Cell, error) {
	var cells []explore.Cell
	have := map[string]bool{}
	for _, e := range m.Expect {
		key := e.Pattern + " " + e.Scenario
		if e.Verdict == May || have[key] {
			continue
		}
		have[key] = true
		p, err := broken.Catalog().Lookup(e.Pattern)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", m.Source, e.Line, err)
		}
		sc, err := m.scenario(e.Scenario)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", m.Source, e.Line, err)
		}
		n := seeds
		if e.Seeds > 0 {
			n = e.Seeds
		}
		c, err := explore.NewCell(p, sc, explore.Seeds{Start: 1, Count: n})
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", m.Source, e.Line, err)
		}
		cells = append(cells, c)
	}
	return cells, nil
}
