package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/safefile"
)

// manifestName is the file, in a report's directory, that lists the files
// the report wrote there: the next report removes those and only those.
const manifestName = "manifest.txt"

const manifestHeader = "# locksim report: the files it wrote here. The next locksim report --out into this directory replaces them and removes only these."

// stagingPrefix names the directory, inside the report's, where a report
// is written before its files are moved into place.
const stagingPrefix = ".locksim-report-staging-"

// reportDir is the directory a report goes into and what an earlier
// report left there.
type reportDir struct {
	dir   string
	owned []string // slash paths relative to dir, from the earlier manifest
	force bool     // write beside files that no earlier report owns

	// Set by lock: the directory with its symlinks resolved, whether the
	// report made it, and the lock files it holds.
	real    string
	created bool
	locks   []*os.File
}

// openReportDir checks dir before any work: a directory (or a missing
// one under a writable parent), empty or holding an earlier report's
// manifest, unless force.
func openReportDir(dir string, force bool) (*reportDir, error) {
	if err := safefile.CheckWritableDir(dir); err != nil {
		return nil, usagef("--out %v", err)
	}
	rd := &reportDir{dir: dir, force: force}
	owned, err := readManifest(filepath.Join(dir, manifestName))
	switch {
	case err == nil:
		rd.owned = owned
	case !errors.Is(err, fs.ErrNotExist):
		return nil, usagef("--out %s: %v", dir, err)
	}
	others, err := rd.foreign()
	if err != nil {
		return nil, runtimef("--out %s: %w", dir, err)
	}
	if over := overwritten(others); len(over) > 0 && (force || owned != nil) {
		return nil, usagef("--out %s: %s not written by an earlier report (not in %s): move them; --force writes beside other files, never over them",
			dir, strings.Join(over, ", "), manifestName)
	}
	if len(others) > 0 && !force {
		return nil, usagef("--out %s: not empty and holds no earlier report (no %s): give an empty or new directory, or --force to write beside %s",
			dir, manifestName, strings.Join(others, ", "))
	}
	return rd, nil
}

// overwritten is those of names that every report writes over.
func overwritten(names []string) []string {
	var out []string
	for _, n := range names {
		if slices.Contains(fixedReportFiles, n) {
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
func (rd *reportDir) foreign() ([]string, error) {
	entries, err := os.ReadDir(rd.dir)
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
		case rd.owned == nil:
			out = append(out, name)
		case slices.Contains(fixedReportFiles, name) && !slices.Contains(rd.owned, name):
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
		if !fs.ValidPath(name) || name == "." || name == manifestName {
			return nil, fmt.Errorf("%s:%d: %q is not a file inside the report", file, line, name)
		}
		owned = append(owned, name)
	}
	return owned, sc.Err()
}

// writeManifest lists files (slash paths) in the directory's manifest.
func (rd *reportDir) writeManifest(files []string) error {
	return safefile.Write(filepath.Join(rd.dir, manifestName), func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "%s\n%s\n", manifestHeader, strings.Join(files, "\n"))
		return err
	})
}

// stage makes the directory a report is written into before install
// moves it into place, after removing what killed reports left (under
// the lock, no other report into this directory runs). When the report
// owns the whole directory the staging sits beside it, so that install
// swaps the two in one step; else inside it.
func (rd *reportDir) stage() (string, error) {
	if err := rd.removeStale(); err != nil {
		return "", err
	}
	parent := filepath.Dir(rd.real)
	if whole, err := rd.whole(); err == nil && whole && sameDevice(parent, rd.real) {
		if s, err := os.MkdirTemp(parent, siblingPrefix(rd.real)); err == nil {
			return s, nil
		}
	}
	return os.MkdirTemp(rd.real, stagingPrefix)
}

// siblingPrefix names the staging directories beside dir.
func siblingPrefix(dir string) string { return "." + filepath.Base(dir) + stagingPrefix }

// removeStale removes the staging directories of reports into this
// directory, inside it and beside it, and nothing else.
func (rd *reportDir) removeStale() error {
	for _, d := range []struct{ dir, prefix string }{{rd.real, stagingPrefix}, {filepath.Dir(rd.real), siblingPrefix(rd.real)}} {
		entries, err := os.ReadDir(d.dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.IsDir() && strings.HasPrefix(e.Name(), d.prefix) {
				if err := os.RemoveAll(filepath.Join(d.dir, e.Name())); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// whole reports whether everything in the directory is the earlier
// report's (its files and the directories that hold them, its manifest,
// the lock): then the new report replaces the directory itself, and
// nothing of anyone else goes with the old one.
func (rd *reportDir) whole() (bool, error) {
	mine := map[string]bool{manifestName: true, lockName: true, journalName: true}
	for _, f := range rd.owned {
		mine[f] = true
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			mine[d+"/"] = true
		}
	}
	whole := true
	err := filepath.WalkDir(rd.real, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == rd.real {
			return err
		}
		rel, err := filepath.Rel(rd.real, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && !strings.Contains(rel, "/") && strings.HasPrefix(rel, stagingPrefix):
			return fs.SkipDir
		case d.IsDir() && mine[rel+"/"], !d.IsDir() && d.Type().IsRegular() && mine[rel]:
			return nil
		}
		whole = false
		return fs.SkipAll
	})
	return whole, err
}

// swap puts a report staged beside the directory in its place in one
// step, the earlier report's files going with the old directory: a
// reader, or a run killed at any point, sees one report or the other.
// It reports false, having changed nothing, when the directory now holds
// a file of someone else or the system cannot swap: install then moves
// the files one by one.
func (rd *reportDir) swap(staging string, files []string) (bool, error) {
	if whole, err := rd.whole(); err != nil || !whole {
		return false, err
	}
	st, err := os.Stat(rd.real)
	if err != nil {
		return false, err
	}
	if err := os.Chmod(staging, st.Mode().Perm()); err != nil {
		return false, err
	}
	staged := &reportDir{dir: staging}
	if err := staged.writeManifest(files); err != nil {
		return false, err
	}
	l, err := lockFile(filepath.Join(staging, lockName))
	if err == nil {
		installStep()
		err = exchange(staging, rd.real)
	}
	if err != nil {
		if l != nil {
			l.Close()
		}
		os.Remove(filepath.Join(staging, lockName))
		os.Remove(filepath.Join(staging, manifestName))
		return false, nil
	}
	rd.locks = append(rd.locks, l)
	rd.created = false
	os.RemoveAll(staging) // the earlier report, now; what is left the next report removes
	return true, nil
}

// installStep runs before each rename of an install; tests set it to
// kill the process there.
var installStep = func() {}

// fixedReportFiles are the files a report writes at its top level: its
// front page and topic pages.
var fixedReportFiles = report.PageFiles()

// install puts the staged report in place. Where the report owns the
// whole directory it swaps the two in one step (swap). Beside other
// files (the default reports/ holds bench/ and real/) it first writes a
// journal naming the staging and its files, then moves the files into
// the directory, each by rename, removes the earlier report's files that
// the new one lacks, lists the new files in the manifest and drops the
// journal. A run killed among those renames leaves the journal: the next
// report into the directory completes the install before anything else
// (resume), so the directory ends up holding one report, the new one.
func (rd *reportDir) install(staging string) error {
	files, err := listFiles(staging)
	if err != nil {
		return runtimef("report: %w", err)
	}
	if filepath.Dir(staging) != rd.real {
		if done, err := rd.swap(staging, files); err != nil {
			return runtimef("report: %w", err)
		} else if done {
			return nil
		}
	}
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(rd.dir, f)); err == nil && !slices.Contains(rd.owned, f) {
			return usagef("--out %s: %s exists and is not an earlier report's (not in %s): move it (--force writes beside other files, never over them)", rd.dir, f, manifestName)
		}
	}
	if err := rd.writeJournal(filepath.Base(staging), files); err != nil {
		return runtimef("report: %w", err)
	}
	if err := rd.writeManifest(union(rd.owned, files)); err != nil {
		return runtimef("report: %w", err)
	}
	if err := rd.complete(staging, files, rd.owned); err != nil {
		return runtimef("report: %w", err)
	}
	return nil
}

// complete moves the staged files (those still in staging) into the
// directory, removes the earlier files of owned that the report lacks,
// writes the manifest of files, and drops the journal and the staging.
// It is install's second half, and what resume runs again after a kill:
// every step may be repeated.
func (rd *reportDir) complete(staging string, files, owned []string) error {
	for _, f := range files {
		src := filepath.Join(staging, filepath.FromSlash(f))
		if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
			continue // moved before the kill
		}
		dst := filepath.Join(rd.dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		installStep()
		if err := os.Rename(src, dst); err != nil {
			return err
		}
	}
	for _, f := range owned {
		if !slices.Contains(files, f) {
			if err := rd.remove(f); err != nil {
				return err
			}
		}
	}
	if err := rd.writeManifest(files); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(rd.real, journalName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.RemoveAll(staging)
}

// journalName is the file, in a report's directory, that an install
// beside other files writes before its first rename and removes after its
// last: while it is there the directory may hold files of two reports,
// and the next report completes the install it names.
const journalName = ".locksim-report-install"

const journalHeader = "# locksim report: an install in progress. The next locksim report into this directory completes it from the staging named below."

// writeJournal records the install of the files staged in staging (a
// directory name inside the report's).
func (rd *reportDir) writeJournal(staging string, files []string) error {
	return safefile.Write(filepath.Join(rd.real, journalName), func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "%s\nstaging %s\n%s\n", journalHeader, staging, strings.Join(files, "\n"))
		return err
	})
}

// resume completes the install that a killed report left (its journal),
// under the lock: the staged files it had not moved are moved, the
// earlier report's that the new one lacks removed. It reports how many
// files the killed report installed, 0 when there was nothing to resume.
// A journal that does not name a staging of this directory, or whose
// staging is gone, is an error: the directory is left as it is.
func (rd *reportDir) resume() (int, error) {
	b, err := os.ReadFile(filepath.Join(rd.real, journalName))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	bad := func(why string) (int, error) {
		return 0, fmt.Errorf("%s: an interrupted install that cannot be completed (%s): remove the file and the staging directories (%s*) and rerun the report", filepath.Join(rd.dir, journalName), why, stagingPrefix)
	}
	if len(lines) < 2 || lines[0] != journalHeader {
		return bad("not a locksim install journal")
	}
	name, ok := strings.CutPrefix(lines[1], "staging ")
	if !ok || !strings.HasPrefix(name, stagingPrefix) || strings.ContainsAny(name, `/\`) {
		return bad("its second line names no staging directory")
	}
	staging := filepath.Join(rd.real, name)
	if st, err := os.Stat(staging); err != nil || !st.IsDir() {
		return bad("its staging " + name + " is gone")
	}
	var files []string
	for _, f := range lines[2:] {
		if !fs.ValidPath(f) || f == "." || f == manifestName {
			return bad(fmt.Sprintf("%q is not a file inside the report", f))
		}
		files = append(files, f)
	}
	owned, err := readManifest(filepath.Join(rd.real, manifestName))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, err
	}
	if err := rd.complete(staging, files, owned); err != nil {
		return 0, err
	}
	rd.owned = files
	return len(files), nil
}

// remove deletes an earlier report's file, then its directories inside
// the report's that it leaves empty.
func (rd *reportDir) remove(f string) error {
	if err := os.Remove(filepath.Join(rd.dir, filepath.FromSlash(f))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for d := path.Dir(f); d != "."; d = path.Dir(d) {
		if os.Remove(filepath.Join(rd.dir, filepath.FromSlash(d))) != nil {
			break // not empty
		}
	}
	return nil
}

// listFiles is every regular file under dir, as sorted slash paths.
func listFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	slices.Sort(files)
	return files, err
}

func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}
