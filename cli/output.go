package cli

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/internal/safefile"
	"github.com/locksim/locksim/sim/scenario"
)

// Bounds of numeric flags, named in their errors.
const (
	maxSeeds    = 1_000_000_000 // seeds per cell (--seeds, --baseline-seeds)
	maxParallel = 4096          // runs at once (--parallel)
	// maxReportSeeds bounds report's seeds: it keeps every run's result
	// in memory until the cells are tallied.
	maxReportSeeds = 10_000
)

// checkCount refuses a count outside [1, max], naming the flag and the
// limit.
func checkCount(flag string, n, max int) error {
	switch {
	case n < 1:
		return usagef("%s %d: want at least 1", flag, n)
	case n > max:
		return usagef("%s %d: want at most %d", flag, n, max)
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
	if _, err := explore.Named(arg); err == nil {
		return false, nil // a built-in or one of the gate's own
	}
	st, err := os.Stat(arg)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, usagef("%s %s: no such file, and no built-in scenario of that name (built-in: %s)", flag, arg, builtinNames())
	case err != nil:
		return false, usagef("%s %s: %w", flag, arg, err)
	case st.IsDir():
		return false, usagef("%s %s: a directory, not a scenario file", flag, arg)
	}
	return true, nil
}

func builtinNames() string {
	var names []string
	for _, b := range scenario.Builtins() {
		names = append(names, b.Name)
	}
	return strings.Join(names, ", ")
}
