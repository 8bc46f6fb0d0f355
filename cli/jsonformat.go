package cli

import (
	"encoding/json"
	"io"

	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/internal/gate"
	"github.com/locksim/locksim/sim"
)

// The format of every --json output: a name and a version, raised when a
// field changes meaning or goes away (docs/json.md documents each).
const (
	formatRun     = "locksim-run/1"
	formatExplore = explore.FormatVersion // explore and merge: what merge reads
	formatCheck   = "locksim-check/1"
	formatList    = "locksim-list/1"
	formatReal    = "locksim-real/1"
)

// runJSON is what `locksim run --json` prints: the result, and its rates
// counted as its verdict counts (the pattern's claims), beside what the
// oracles found of the claims the pattern does not make.
type runJSON struct {
	Format string `json:"format"`
	*sim.Result
	ClaimViolations                  int                `json:"claim_violations"`
	ViolationsPerSimHour             float64            `json:"violations_per_sim_hour"`
	ViolationsPerMillionAcquisitions float64            `json:"violations_per_million_acquisitions"`
	Unclaimed                        []sim.ClaimFinding `json:"unclaimed"`
	// Explore measures the rate that one seed cannot give.
	Explore string `json:"explore"`
}

func newRunJSON(res *sim.Result, f runFlags) runJSON {
	u := res.Unclaimed()
	if u == nil {
		u = []sim.ClaimFinding{}
	}
	return runJSON{Format: formatRun, Result: res, ClaimViolations: res.ClaimViolations(),
		ViolationsPerSimHour: res.RatePerSimHour(), ViolationsPerMillionAcquisitions: res.RatePerMillionAcquisitions(),
		Unclaimed: u, Explore: exploreCmd(f)}
}

// checkJSON is what `locksim check --json` prints.
type checkJSON struct {
	Format string `json:"format"`
	// Verdict is passed, failed, or interrupted (a partial check: no
	// verdict on the matrix, never read as passed).
	Verdict string `json:"verdict"`
	// Selection is what --pattern and --scenario kept of the matrix;
	// absent without them.
	Selection *selection `json:"selection,omitempty"`
	*gate.Result
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
