package cli

import (
	"io"

	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/internal/safefile"
)

// Bounds of numeric flags, named in their errors.
const (
	maxSeeds    = explore.MaxSeeds    // seeds per cell (--seeds, --baseline-seeds)
	maxParallel = explore.MaxParallel // runs at once (--parallel)
	// maxReportSeeds bounds report's seeds: it keeps every run's result
	// in memory until the cells are tallied.
	maxReportSeeds = 10_000
)

// checkCount refuses a count outside [1, max], naming the flag and the
// limit.
func checkCount(flag string, n, max int) error {
	if err := explore.CheckCount(flag, n, max); err != nil {
		return usageError{err}
	}
	return nil
}

// checkPaths refuses, before any work, an output that is an input or
// another output, or that cannot be written: exit 2.
func checkPaths(p *safefile.Paths) error {
	if err := p.Check(); err != nil {
		return usageError{err}
	}
	return nil
}

// writeOutput writes through write to path (atomically: an error leaves
// the old file), or to stdout when path is "". A failed write is an
// environment failure (exit 3).
func writeOutput(stdout io.Writer, flag, path string, write func(io.Writer) error) error {
	if path == "" {
		if err := write(stdout); err != nil {
			return runtimef("write stdout: %w", err)
		}
		return nil
	}
	if err := safefile.Write(path, write); err != nil {
		return runtimef("%s: %w", flag, err)
	}
	return nil
}

// scenarioFile says whether a --scenario value names a file (false for a
// built-in's name), or gives a usage error saying what is wrong with it:
// no such file, a directory.
func scenarioFile(flag, arg string) (bool, error) {
	isFile, err := explore.ScenarioFile(arg)
	if err != nil {
		return false, usagef("%s %s: %w", flag, arg, err)
	}
	return isFile, nil
}
