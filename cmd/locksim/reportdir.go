package main

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
	force bool     // write even where no earlier report owns the files
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
	if len(others) > 0 && !force {
		if owned == nil {
			return nil, usagef("--out %s: not empty and holds no earlier report (no %s): give an empty or new directory, or --force to write beside %s",
				dir, manifestName, strings.Join(others, ", "))
		}
		return nil, usagef("--out %s: %s not written by the earlier report (not in %s): move them, or --force to replace them",
			dir, strings.Join(others, ", "), manifestName)
	}
	return rd, nil
}

// foreign lists what is in the directory and not the earlier report's:
// without a manifest, every entry (but leftover staging directories);
// with one, the report's fixed files (README.md, report.html) it does
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
		case strings.HasPrefix(name, stagingPrefix):
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
// moves it into place, after removing what interrupted reports left.
func (rd *reportDir) stage() (string, error) {
	if err := os.MkdirAll(rd.dir, 0o755); err != nil {
		return "", err
	}
	old, _ := filepath.Glob(filepath.Join(rd.dir, stagingPrefix+"*"))
	for _, o := range old {
		if err := os.RemoveAll(o); err != nil {
			return "", err
		}
	}
	return os.MkdirTemp(rd.dir, stagingPrefix)
}

// fixedReportFiles are the files every report writes at its top level.
var fixedReportFiles = []string{"README.md", "report.html"}

// install moves the staged report's files into the directory, each by
// rename, removes the earlier report's files that the new one lacks, and
// lists the new files in the manifest. An interruption leaves every file
// it moved listed, so that the next report may replace it.
func (rd *reportDir) install(staging string) error {
	files, err := listFiles(staging)
	if err != nil {
		return runtimef("report: %w", err)
	}
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(rd.dir, f)); err == nil && !rd.force && !slices.Contains(rd.owned, f) {
			return usagef("--out %s: %s exists and is not the earlier report's (not in %s): move it, or --force to replace it", rd.dir, f, manifestName)
		}
	}
	if err := rd.writeManifest(union(rd.owned, files)); err != nil {
		return runtimef("report: %w", err)
	}
	for _, f := range files {
		dst := filepath.Join(rd.dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return runtimef("report: %w", err)
		}
		if err := os.Rename(filepath.Join(staging, filepath.FromSlash(f)), dst); err != nil {
			return runtimef("report: %w", err)
		}
	}
	for _, f := range rd.owned {
		if !slices.Contains(files, f) {
			if err := rd.remove(f); err != nil {
				return runtimef("report: %w", err)
			}
		}
	}
	if err := rd.writeManifest(files); err != nil {
		return runtimef("report: %w", err)
	}
	return os.RemoveAll(staging)
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
