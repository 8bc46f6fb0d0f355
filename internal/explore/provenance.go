package explore

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/locksim/locksim/internal/buildinfo"
	"github.com/locksim/locksim/sim/scenario"
)

// Provenance is what a report was made from, beside its cells (each of
// which records its scenario's hash and its seed range): Merge refuses
// reports that differ in any of it.
type Provenance struct {
	// Version and Commit name the locksim that ran the simulations
	// (buildinfo.Version, buildinfo.Commit).
	Version string `json:"version"`
	Commit  string `json:"commit"`
	// Expectations is the expectations file the runs were made for, when
	// a gate made them.
	Expectations *File `json:"expectations,omitempty"`
}

// File names a file by its path and the sha256 of its content.
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Hash is the hex sha256 of data.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// thisBuild is the provenance of reports made by this binary.
func thisBuild(expectations *File) Provenance {
	return Provenance{Version: buildinfo.Version(), Commit: buildinfo.Commit(), Expectations: expectations}
}

// scenarioHash is the sha256 of the text a cell's scenario came from: the
// file's content, or for a built-in its canonical text for the pattern's
// nodes.
func scenarioHash(sc Scenario, resolved scenario.Scenario) string {
	if sc.SHA256 != "" {
		return sc.SHA256
	}
	return Hash([]byte(scenario.Format(resolved)))
}

// sameProvenance names the first field in which r differs from a (report
// 1), with both values.
func sameProvenance(a, r *Report) error {
	pa, pr := a.Made, r.Made
	switch {
	case pa.Version != pr.Version:
		return fmt.Errorf("made by locksim version %q, report 1 by %q", pr.Version, pa.Version)
	case pa.Commit != pr.Commit:
		return fmt.Errorf("made by locksim commit %q, report 1 by %q", pr.Commit, pa.Commit)
	}
	ea, er := fileOrNone(pa.Expectations), fileOrNone(pr.Expectations)
	if ea != er {
		return fmt.Errorf("made for expectations %s, report 1 for %s", er, ea)
	}
	return nil
}

func fileOrNone(f *File) string {
	if f == nil {
		return "none"
	}
	return fmt.Sprintf("%s (sha256 %s)", f.Path, f.SHA256)
}
