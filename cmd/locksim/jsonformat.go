package main

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

// runJSON is what `locksim run --json` prints.
type runJSON struct {
	Format string `json:"format"`
	*sim.Result
}

// checkJSON is what `locksim check --json` prints.
type checkJSON struct {
	Format string `json:"format"`
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
