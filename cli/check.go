package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/locksim/locksim/internal/gate"
)

// defaultCheckSeeds is the seed budget of a cell whose line gives none;
// the whole check fits in CI's time on a 2-core machine (docs/ci.md).
const defaultCheckSeeds = 40

type checkFlags struct {
	seeds, parallel  int
	asJSON, progress bool
	expect           string
	print            bool
	sel              selectFlags // check_select.go
}

// checkHelp is the help of locksim check.
const checkHelp = `Runs the expectations matrix (internal/gate/expectations.txt, embedded; or
--expect FILE) in the simulator. Each line says that a pattern under a
built-in scenario holds a claim (no seed breaks it), breaks it (some seed
does: the suite can see that fault), or may break it (not gated). Every
claim of every correct pattern under every built-in scenario must have a
line, every broken variant must be caught: under some scenario it
breaks a claim that the pattern it imitates holds, and every fault of a
gated cell's scenario must fire in at least one of the cell's runs.

With --expect FILE the matrix is yours and may be partial: a line's
scenario is a built-in's name or a scenario file's path (relative to
FILE); every claim of each pattern FILE names under each scenario it
names holds unless a line says otherwise (--unlisted skip: only the lines
are checked); only the broken variants FILE names must be caught.
--pattern and --scenario keep the checks the whole run would make of
those patterns and scenarios, and no other: a selection of the embedded
matrix asks nothing of a claim its lines leave out, and a --scenario
selection asks no broken variant to be caught (that takes the lines of
every scenario). The first line says how many lines were judged and how
many skipped.

Each cell runs seeds 1..N (N = --seeds unless its line says seeds=N).
Every deviation is printed with what was expected, what was seen and a
replay command. Exit 0 when all is as expected, 1 on any deviation, 2 on
bad usage (a bad flag, an expectations file that does not parse, or a
scenario file whose lock settings a line's pattern refuses: the message
names the line). On SIGINT or SIGTERM it stops, prints the checks
of the cells that finished as a result marked partial (text and JSON), and
exits 130: a partial check is no verdict (--json: "verdict" is
"interrupted", where a complete check says "passed" or "failed").`

func newCheckCmd() *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check",
		Short: "The CI gate: run the expectations matrix and fail on any deviation",
		Long:  checkHelp,
		Example: `  locksim check
  locksim check --seeds 200 --parallel 8
  locksim check --json > check.json
  locksim check --print > my-expectations.txt   # edit, then:
  locksim check --expect my-expectations.txt
  locksim check --expect ci/locks.txt --pattern basic,fenced   # lines like: fenced ci/pause.txt holds fencing`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runCheck(cmd, f) },
	}
	f.bind(cmd.Flags())
	f.sel.register(cmd)
	return cmd
}

// bind defines the flags of the command into f.
func (f *checkFlags) bind(fl *pflag.FlagSet) {
	fl.IntVar(&f.seeds, "seeds", defaultCheckSeeds, "seeds per cell whose line gives no seeds=N")
	fl.IntVar(&f.parallel, "parallel", runtime.GOMAXPROCS(0), "runs at once")
	fl.BoolVar(&f.asJSON, "json", false, "print JSON")
	fl.BoolVar(&f.progress, "progress", false, "draw a progress bar even when stderr is not a terminal")
	fl.StringVar(&f.expect, "expect", "", "expectations file (default: the embedded matrix)")
	fl.BoolVar(&f.print, "print", false, "print the embedded expectations matrix and exit")
}

func runCheck(cmd *cobra.Command, f checkFlags) error {
	if f.print {
		if err := printAlone(cmd); err != nil {
			return err
		}
		return writeOutput(cmd.OutOrStdout(), "", "", func(w io.Writer) error {
			_, err := io.WriteString(w, gate.DefaultText())
			return err
		})
	}
	if err := errors.Join(checkCount("--seeds", f.seeds, maxSeeds), checkCount("--parallel", f.parallel, maxParallel)); err != nil {
		return err
	}
	m, err := loadMatrix(f.expect)
	if err != nil {
		return err
	}
	m, sel, err := f.sel.apply(m)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(cmd.Context())
	defer stop()
	var guard settingsGuard
	opt := gate.Options{Seeds: f.seeds, Parallel: f.parallel, Progress: progressReporter(cmd.ErrOrStderr(), f.progress, "check"), Run: guard.run}
	res, runErr := gate.Check(ctx, m, opt)
	if err := guard.err(m); err != nil {
		return err
	}
	if res == nil {
		return runtimeError{runErr}
	}
	err = writeOutput(cmd.OutOrStdout(), "", "", func(w io.Writer) error {
		if f.asJSON {
			return writeJSON(w, checkJSON{Format: formatCheck, Verdict: res.Verdict(), Selection: sel, Result: res})
		}
		sel.write(w)
		return res.WriteText(w)
	})
	switch {
	case err != nil:
		return err
	case res.Partial != nil:
		return interruptError{fmt.Errorf("check interrupted after %d of %d runs: the result above is partial, no verdict", res.Partial.Done, res.Partial.Total)}
	case runErr != nil:
		return runtimeError{runErr}
	case !res.OK():
		return violationError{fmt.Sprintf("check: %d deviations from %s", len(res.Deviations), res.Source)}
	}
	return nil
}

// loadMatrix parses the embedded matrix, or the file at path.
func loadMatrix(path string) (*gate.Matrix, error) {
	if path == "" {
		m, err := gate.Default()
		if err != nil {
			return nil, fmt.Errorf("embedded expectations: %w", err)
		}
		return m, nil
	}
	if st, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, usagef("--expect %s: no such file", path)
	} else if err != nil {
		return nil, usagef("--expect %s: %v", path, err)
	} else if st.IsDir() {
		return nil, usagef("--expect %s: a directory, not an expectations file", path)
	}
	m, err := gate.ParseFile(path)
	if err != nil {
		return nil, usagef("--expect: %v", err)
	}
	return m, nil
}

// printAlone refuses --print beside any other flag: it prints the
// embedded matrix, so --expect, a selection, --json or the run's knobs
// would be silently ignored.
func printAlone(cmd *cobra.Command) error {
	var other []string
	for _, name := range []string{"expect", "pattern", "scenario", "unlisted", "seeds", "parallel", "json", "progress"} {
		if cmd.Flags().Changed(name) {
			other = append(other, "--"+name)
		}
	}
	if len(other) > 0 {
		return usagef("--print prints the embedded matrix and takes no other flag (%s given)", strings.Join(other, ", "))
	}
	return nil
}
