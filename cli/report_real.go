package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/realmode"
)

// loadAgreement reads real mode's agreement file from dir (nil when dir is
// ""): a missing file becomes the section's note, a malformed one a usage
// error naming it. out is the report's directory, for the notes' link.
func loadAgreement(dir, out string) (*report.Agreement, error) {
	if dir == "" {
		return nil, nil
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, usagef("--real %s: not a directory (real mode's, as locksim real --table DIR/README.md writes it)", dir)
	}
	path := filepath.Join(dir, realmode.AgreementFileName)
	f, err := realmode.ReadAgreementFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &report.Agreement{Missing: filepath.ToSlash(path) + " does not exist"}, nil
	case err != nil:
		return nil, usagef("--real: %v", err)
	}
	a := &report.Agreement{Command: f.Command}
	if _, err := os.Stat(filepath.Join(dir, "NOTES.md")); err == nil {
		a.NotesLink = report.BenchLink(out, dir) + "/NOTES.md"
	}
	for _, c := range f.Cells {
		a.Cells = append(a.Cells, report.AgreeCell{Pattern: c.Pattern, Scenario: c.Scenario,
			Sim: realTally(c.Sim), Real: realTally(c.Real), Refused: c.Refused, Stale: cellStaleness(c), Commit: c.Commit,
			Kinds: agreeKinds(c), Rerun: rerunCommand(f, c)})
	}
	return a, nil
}

// rerunCommand is the command that makes a library cell's real runs
// again: a reference client of clients/ by its name, a Go library
// through the client program its table run named (--lib-client); "" for
// a pattern's cell or a refused one.
func rerunCommand(f realmode.AgreementFile, c realmode.Cell) string {
	if c.Sim.Runs > 0 || c.Refused != "" {
		return ""
	}
	run := fmt.Sprintf("--pattern %s --scenario %s --runs %d", c.Pattern, c.Scenario, c.Real.Runs)
	if _, ok := findLangClient(c.Pattern); ok {
		return "locksim real " + run
	}
	command := f.Command
	if c.Source >= 0 && c.Source < len(f.Sources) {
		command = f.Sources[c.Source].Command
	}
	client := "bin/locksim-real-client" // make real's build of bench/refs' client
	if fs := strings.Fields(command); slices.Contains(fs, "--lib-client") {
		if i := slices.Index(fs, "--lib-client"); i+1 < len(fs) {
			client = fs[i+1]
		}
	}
	return "locksim real --client " + client + " " + run
}

// cellStaleness says why a cell of real mode's table was made by other
// lock code, scenarios, claims or oracles than this binary's ("" when
// fresh).
func cellStaleness(c realmode.Cell) string {
	fp, ok := realmode.CurrentFingerprint(c)
	if !ok {
		return "its scenario is no longer a built-in one"
	}
	return c.Staleness(fp)
}

// agreeKinds is the cell's verdict per kind of claim, nil for a cell made
// before runs were counted by kind.
func agreeKinds(c realmode.Cell) []report.AgreeKind {
	ks, ok := c.ByKind()
	if !ok {
		return nil
	}
	out := []report.AgreeKind{}
	for _, k := range ks {
		out = append(out, report.AgreeKind{Kind: report.KindNamed(k.Kind), Sim: k.Sim, Real: k.Real, State: string(k.State)})
	}
	return out
}

func realTally(t realmode.Tally) report.RealTally {
	return report.RealTally{Runs: t.Runs, Violated: t.Violated, Failed: t.Failed}
}
