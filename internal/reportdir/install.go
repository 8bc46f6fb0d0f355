package reportdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/safefile"
)

// whole reports whether everything in the directory is the earlier
// report's (its files and the directories that hold them, its manifest,
// the lock): then the new report replaces the directory itself, and
// nothing of anyone else goes with the old one.
func (d *Dir) whole() (bool, error) {
	mine := map[string]bool{Manifest: true, lockName: true, journalName: true}
	for _, f := range d.owned {
		mine[f] = true
		for p := path.Dir(f); p != "."; p = path.Dir(p) {
			mine[p+"/"] = true
		}
	}
	whole := true
	err := filepath.WalkDir(d.real, func(p string, e fs.DirEntry, err error) error {
		if err != nil || p == d.real {
			return err
		}
		rel, err := filepath.Rel(d.real, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case e.IsDir() && !strings.Contains(rel, "/") && strings.HasPrefix(rel, stagingPrefix):
			return fs.SkipDir
		case e.IsDir() && mine[rel+"/"], !e.IsDir() && e.Type().IsRegular() && mine[rel]:
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
func (d *Dir) swap(staging string, files []string) (bool, error) {
	if whole, err := d.whole(); err != nil || !whole {
		return false, err
	}
	st, err := os.Stat(d.real)
	if err != nil {
		return false, err
	}
	if err := os.Chmod(staging, st.Mode().Perm()); err != nil {
		return false, err
	}
	staged := &Dir{dir: staging}
	if err := staged.writeManifest(files); err != nil {
		return false, err
	}
	l, err := lockFile(filepath.Join(staging, lockName))
	if err == nil {
		installStep()
		err = exchange(staging, d.real)
	}
	if err != nil {
		if l != nil {
			l.Close()
		}
		os.Remove(filepath.Join(staging, lockName))
		os.Remove(filepath.Join(staging, Manifest))
		return false, nil
	}
	d.locks = append(d.locks, l)
	d.created = false
	os.RemoveAll(staging) // the earlier report, now; what is left the next report removes
	return true, nil
}

// installStep runs before each rename of an install; tests set it to
// kill the process there.
var installStep = func() {}

// install puts the staged report in place. Where the report owns the
// whole directory it swaps the two in one step (swap). Beside other
// files (the default reports/ holds bench/ and real/) it first writes a
// journal naming the staging and its files, then moves the files into
// the directory, each by rename, removes the earlier report's files that
// the new one lacks, lists the new files in the manifest and drops the
// journal. A run killed among those renames leaves the journal: the next
// report into the directory completes the install before anything else
// (Resume), so the directory ends up holding one report, the new one.
func (d *Dir) install(staging string) error {
	files, err := listFiles(staging)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if filepath.Dir(staging) != d.real {
		if done, err := d.swap(staging, files); err != nil {
			return fmt.Errorf("report: %w", err)
		} else if done {
			return nil
		}
	}
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(d.dir, f)); err == nil && !slices.Contains(d.owned, f) {
			return usagef("--out %s: %s exists and is not an earlier report's (not in %s): move it (--force writes beside other files, never over them)", d.dir, f, Manifest)
		}
	}
	if err := d.writeJournal(filepath.Base(staging), files); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := d.writeManifest(union(d.owned, files)); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := d.complete(staging, files, d.owned); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// complete moves the staged files (those still in staging) into the
// directory, removes the earlier files of owned that the report lacks,
// writes the manifest of files, and drops the journal and the staging.
// It is install's second half, and what Resume runs again after a kill:
// every step may be repeated.
func (d *Dir) complete(staging string, files, owned []string) error {
	for _, f := range files {
		src := filepath.Join(staging, filepath.FromSlash(f))
		if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
			continue // moved before the kill
		}
		dst := filepath.Join(d.dir, filepath.FromSlash(f))
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
			if err := d.remove(f); err != nil {
				return err
			}
		}
	}
	if err := d.writeManifest(files); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(d.real, journalName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
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
func (d *Dir) writeJournal(staging string, files []string) error {
	return safefile.Write(filepath.Join(d.real, journalName), func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "%s\nstaging %s\n%s\n", journalHeader, staging, strings.Join(files, "\n"))
		return err
	})
}

// Resume completes the install that a killed report left (its journal),
// under the lock: the staged files it had not moved are moved, the
// earlier report's that the new one lacks removed. It reports how many
// files the killed report installed, 0 when there was nothing to resume.
// A journal that does not name a staging of this directory, or whose
// staging is gone, is an error: the directory is left as it is.
func (d *Dir) Resume() (int, error) {
	n, err := d.resume()
	if err != nil {
		return 0, fmt.Errorf("--out %s: %w", d.dir, err)
	}
	return n, nil
}

func (d *Dir) resume() (int, error) {
	b, err := os.ReadFile(filepath.Join(d.real, journalName))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	bad := func(why string) (int, error) {
		return 0, fmt.Errorf("%s: an interrupted install that cannot be completed (%s): remove the file and the staging directories (%s*) and rerun the report", filepath.Join(d.dir, journalName), why, stagingPrefix)
	}
	if len(lines) < 2 || lines[0] != journalHeader {
		return bad("not a locksim install journal")
	}
	name, ok := strings.CutPrefix(lines[1], "staging ")
	if !ok || !strings.HasPrefix(name, stagingPrefix) || strings.ContainsAny(name, `/\`) {
		return bad("its second line names no staging directory")
	}
	staging := filepath.Join(d.real, name)
	if st, err := os.Stat(staging); err != nil || !st.IsDir() {
		return bad("its staging " + name + " is gone")
	}
	var files []string
	for _, f := range lines[2:] {
		if !fs.ValidPath(f) || f == "." || f == Manifest {
			return bad(fmt.Sprintf("%q is not a file inside the report", f))
		}
		files = append(files, f)
	}
	owned, err := readManifest(filepath.Join(d.real, Manifest))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, err
	}
	if err := d.complete(staging, files, owned); err != nil {
		return 0, err
	}
	d.owned = files
	return len(files), nil
}

// remove deletes an earlier report's file, then its directories inside
// the report's that it leaves empty.
func (d *Dir) remove(f string) error {
	if err := os.Remove(filepath.Join(d.dir, filepath.FromSlash(f))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for p := path.Dir(f); p != "."; p = path.Dir(p) {
		if os.Remove(filepath.Join(d.dir, filepath.FromSlash(p))) != nil {
			break // not empty
		}
	}
	return nil
}

// listFiles is every regular file under dir, as sorted slash paths.
func listFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
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
