package reportdir

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/safefile"
)

// Manifest is the file, in a report's directory, that lists the files
// the report wrote there: the next report removes those and only those.
const Manifest = "manifest.txt"

const manifestHeader = "# locksim report: the files it wrote here. The next locksim report --out into this directory replaces them and removes only these."

// stagingPrefix names the directory, inside the report's, where a report
// is written before its files are moved into place.
const stagingPrefix = ".locksim-report-staging-"

// UsageError marks a directory that cannot take a report as given (a
// file, a directory of other files, a manifest that is not one): the
// command's bad usage, not a failure of the environment.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

func usagef(format string, a ...any) error { return UsageError{fmt.Errorf(format, a...)} }

// IsUsage reports whether err is, or wraps, a UsageError.
func IsUsage(err error) bool {
	var u UsageError
	return errors.As(err, &u)
}

// Dir is the directory a report goes into and what an earlier report
// left there.
type Dir struct {
	dir   string
	owned []string // slash paths relative to dir, from the earlier manifest
	force bool     // write beside files that no earlier report owns
	fixed []string // the files every report writes at its top level

	// Set by Lock: the directory with its symlinks resolved, whether the
	// report made it, and the lock files it holds.
	real    string
	created bool
	locks   []*os.File
}

// Open checks dir before any work: a directory (or a missing one under a
// writable parent), empty or holding an earlier report's manifest,
// unless force. fixed are the files every report writes at its top level
// (its front page and topic pages): never written over a file that no
// earlier report wrote, even with force.
func Open(dir string, force bool, fixed []string) (*Dir, error) {
	if err := safefile.CheckWritableDir(dir); err != nil {
		return nil, usagef("--out %v", err)
	}
	d := &Dir{dir: dir, force: force, fixed: fixed}
	owned, err := readManifest(filepath.Join(dir, Manifest))
	switch {
	case err == nil:
		d.owned = owned
	case !errors.Is(err, fs.ErrNotExist):
		return nil, usagef("--out %s: %v", dir, err)
	}
	others, err := d.foreign()
	if err != nil {
		return nil, fmt.Errorf("--out %s: %w", dir, err)
	}
	if over := d.overwritten(others); len(over) > 0 && (force || owned != nil) {
		return nil, usagef("--out %s: %s not written by an earlier report (not in %s): move them; --force writes beside other files, never over them",
			dir, strings.Join(over, ", "), Manifest)
	}
	if len(others) > 0 && !force {
		return nil, usagef("--out %s: not empty and holds no earlier report (no %s): give an empty or new directory, or --force to write beside %s",
			dir, Manifest, strings.Join(others, ", "))
	}
	return d, nil
}

// Owned is the files the earlier report listed in its manifest (slash
// paths relative to the directory), nil when there was none.
func (d *Dir) Owned() []string { return d.owned }

// overwritten is those of names that every report writes over.
func (d *Dir) overwritten(names []string) []string {
	var out []string
	for _, n := range names {
		if slices.Contains(d.fixed, n) {
			out = append(out, n)
		}
	}
	return out
}

// foreign lists what is in the directory and not the earlier report's:
// without a manifest, every entry (but leftover staging directories);
// with one, the report's fixed files (its pages: README.md, report.html,
// the topic pages) it does
// not list.
func (d *Dir) foreign() ([]string, error) {
	entries, err := os.ReadDir(d.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, stagingPrefix), name == lockName, name == journalName:
		case d.owned == nil:
			out = append(out, name)
		case slices.Contains(d.fixed, name) && !slices.Contains(d.owned, name):
			out = append(out, name)
		}
	}
	return out, nil
}

// readManifest reads the list of files an earlier report wrote.
func readManifest(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() || sc.Text() != manifestHeader {
		return nil, fmt.Errorf("%s is not a locksim report manifest (its first line is not %q)", file, manifestHeader)
	}
	owned := []string{}
	for line := 2; sc.Scan(); line++ {
		name := strings.TrimSpace(sc.Text())
		if name == "" {
			continue
		}
		if !fs.ValidPath(name) || name == "." || name == Manifest {
			return nil, fmt.Errorf("%s:%d: %q is not a file inside the report", file, line, name)
		}
		owned = append(owned, name)
	}
	return owned, sc.Err()
}

// writeManifest lists files (slash paths) in the directory's manifest.
func (d *Dir) writeManifest(files []string) error {
	return safefile.Write(filepath.Join(d.dir, Manifest), func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "%s\n%s\n", manifestHeader, strings.Join(files, "\n"))
		return err
	})
}

// Write writes a report through write into a staging directory, then
// moves it into place (install), under the lock (Lock): a write that
// fails, or a run killed before the install, leaves the earlier report.
// The staging is removed whatever happens.
func (d *Dir) Write(write func(staging string) error) error {
	staging, err := d.stage()
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	defer os.RemoveAll(staging)
	if err := write(staging); err != nil {
		return err
	}
	return d.install(staging)
}

// stage makes the directory a report is written into before install
// moves it into place, after removing what killed reports left (under
// the lock, no other report into this directory runs). When the report
// owns the whole directory the staging sits beside it, so that install
// swaps the two in one step; else inside it.
func (d *Dir) stage() (string, error) {
	if err := d.removeStale(); err != nil {
		return "", err
	}
	parent := filepath.Dir(d.real)
	if whole, err := d.whole(); err == nil && whole && sameDevice(parent, d.real) {
		if s, err := os.MkdirTemp(parent, siblingPrefix(d.real)); err == nil {
			return s, nil
		}
	}
	return os.MkdirTemp(d.real, stagingPrefix)
}

// siblingPrefix names the staging directories beside dir.
func siblingPrefix(dir string) string { return "." + filepath.Base(dir) + stagingPrefix }

// removeStale removes the staging directories of reports into this
// directory, inside it and beside it, and nothing else.
func (d *Dir) removeStale() error {
	for _, s := range []struct{ dir, prefix string }{{d.real, stagingPrefix}, {filepath.Dir(d.real), siblingPrefix(d.real)}} {
		entries, err := os.ReadDir(s.dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.IsDir() && strings.HasPrefix(e.Name(), s.prefix) {
				if err := os.RemoveAll(filepath.Join(s.dir, e.Name())); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
