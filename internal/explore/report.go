package explore

import (
	"fmt"
	"strings"

	"github.com/locksim/locksim/pattern"
)

// FormatVersion marks the JSON of a Report, so that Merge can refuse
// other files.
const FormatVersion = "locksim-explore/3"

// Report is the aggregate of an exploration: one entry per cell, in the
// order of the cells given to Run.
type Report struct {
	Format string `json:"format"`
	// Made says what made the report (Merge refuses a mismatch).
	Made Provenance `json:"made_from"`
	// Shard says which shards the report holds; nil: every seed.
	Shard *ShardSet `json:"shard,omitempty"`
	// Partial is set when the run was stopped before every run was done:
	// the cells hold the runs that finished.
	Partial *Partial     `json:"partial,omitempty"`
	Cells   []CellResult `json:"cells"`
}

// Partial says how much of a stopped exploration finished.
type Partial struct {
	Done  int `json:"done"`  // runs that finished
	Total int `json:"total"` // runs planned
}

// ShardSet is the shards (of N) a report holds.
type ShardSet struct {
	N    int   `json:"n"`
	Have []int `json:"have"` // ascending
}

// CellResult is one cell's aggregate.
type CellResult struct {
	Pattern     string `json:"pattern"`
	Broken      bool   `json:"broken,omitempty"` // a deliberately broken variant
	Scenario    string `json:"scenario"`
	ScenarioArg string `json:"scenario_arg"` // what `locksim run --scenario` takes
	// ScenarioSHA256 is the sha256 of the scenario's text: the file's
	// content, or a built-in's canonical text for the pattern's nodes.
	ScenarioSHA256 string   `json:"scenario_sha256"`
	Claims         []string `json:"claims"`
	Seeds          Seeds    `json:"seeds"`
	Tally
	// Derived from the tally by finish.
	AcquisitionsPerRun float64 `json:"acquisitions_per_run"`
	WaitMeanNs         int64   `json:"wait_mean_ns"`
	// The claim violations of the cell as rates (Tally.ClaimViolations),
	// beside the per-seed counts.
	ViolationsPerSimHour             float64 `json:"violations_per_sim_hour"`
	ViolationsPerMillionAcquisitions float64 `json:"violations_per_million_acquisitions"`
	// Replay reruns the lowest violating seed; empty when none violated.
	Replay string `json:"replay,omitempty"`
}

func newReport(cells []Cell, sh Shard, made Provenance) *Report {
	rep := &Report{Format: FormatVersion, Made: made, Cells: make([]CellResult, len(cells))}
	if sh.N > 0 {
		rep.Shard = &ShardSet{N: sh.N, Have: []int{sh.I}}
	}
	for i, c := range cells {
		claims := ClaimNames(c.Pattern.Claims)
		rep.Cells[i] = CellResult{Pattern: c.Pattern.Name, Broken: c.Pattern.Broken, Scenario: c.Scenario.Name,
			ScenarioArg: c.Scenario.Arg, ScenarioSHA256: scenarioHash(c.Scenario, c.resolved), Claims: claims, Seeds: c.Seeds,
			Tally: newTally(claims)}
		rep.Cells[i].Faults = faultCounts(c.resolved)
	}
	return rep
}

// finish computes the derived fields.
func (r *Report) finish() {
	for i := range r.Cells {
		c := &r.Cells[i]
		c.AcquisitionsPerRun = c.Tally.AcquisitionsPerRun()
		c.WaitMeanNs = int64(c.Tally.WaitMean())
		c.ViolationsPerSimHour = c.Tally.RatePerSimHour()
		c.ViolationsPerMillionAcquisitions = c.Tally.RatePerMillionAcquisitions()
		c.Replay = ""
		if c.FirstViolated != nil {
			c.Replay = c.ReplayCommand(*c.FirstViolated)
		}
	}
}

// ReplayCommand is the one-line command that reruns seed of this cell.
func (c CellResult) ReplayCommand(seed uint64) string {
	return ReplayCommand(c.Pattern, c.ScenarioArg, seed)
}

// command is the name replay and explore commands start with: locksim,
// or the name of a user's own build of the command tree (SetCommand).
var command = "locksim"

// SetCommand makes every replay and explore command start with name: a
// binary built with the user's patterns (cli.Main) names itself, since
// locksim does not know those patterns. Set once, before any command runs.
func SetCommand(name string) { command = name }

// Command is the name replay and explore commands start with.
func Command() string { return command }

// ReplayCommand is the one-line command that reruns pattern under the
// scenario (a built-in's name or a file's path) with seed.
func ReplayCommand(pattern, scenarioArg string, seed uint64) string {
	return fmt.Sprintf(command+" run --pattern %s --scenario %s --seed %d", ShellQuote(pattern), ShellQuote(scenarioArg), seed)
}

// ExploreCommand is the one-line command that explores pattern under the
// scenario over seeds: the rate that one run of one seed cannot give.
func ExploreCommand(pattern, scenarioArg string, seeds Seeds) string {
	cmd := fmt.Sprintf(command+" explore --pattern %s --scenario %s --seeds %d", ShellQuote(pattern), ShellQuote(scenarioArg), seeds.Count)
	if seeds.Start != 1 {
		cmd += fmt.Sprintf(" --seed-start %d", seeds.Start)
	}
	return cmd
}

// ShellQuote quotes s for a POSIX shell when it holds anything but plain
// word characters.
func ShellQuote(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ClaimNames names the claims of c as the simulator reports them in
// sim.Result.Claims.
func ClaimNames(c pattern.Claims) []string { return c.Names() }

// Cell returns the result of pattern under scenario, or nil.
func (r *Report) Cell(pattern, scenario string) *CellResult {
	for i := range r.Cells {
		if r.Cells[i].Pattern == pattern && r.Cells[i].Scenario == scenario {
			return &r.Cells[i]
		}
	}
	return nil
}
