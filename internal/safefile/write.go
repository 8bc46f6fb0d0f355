// Package safefile writes the CLI's output files so that no input is
// ever an output and no file is ever left half written.
//
// Every file is written to a temporary name in its own directory and
// renamed into place once complete: a reader sees the old file or the new
// one, and a failed, refused or interrupted write leaves the old file
// intact. Paths checks every output path against every input and every
// other output, after resolving them (absolute, symlinks, hard links),
// before any work starts.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// File is an output being written under a temporary name; Commit renames
// it into place, Abort removes it. After either, the other does nothing.
// An existing path that is not a regular file (a terminal, /dev/null, a
// pipe) is written directly instead: there is nothing to keep intact and
// it must not be replaced.
type File struct {
	*os.File
	path   string
	direct bool
	done   bool
}

// Create starts writing path: a temporary file in path's directory that
// takes path's name on Commit. A symlink is followed, a dangling one too:
// its target is written, the link kept. The file gets path's mode when
// path exists, else 0644. Temporary files of path that a killed writer
// left behind (named for a process that no longer runs) are removed.
func Create(path string) (*File, error) {
	path = followLinks(path)
	st, err := os.Stat(path)
	if err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		out, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &File{File: out, path: path, direct: true}, nil
	}
	mode := fs.FileMode(0o644)
	if err == nil && st.Mode().IsRegular() {
		mode = st.Mode().Perm()
	}
	tmp, err := createTemp(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		return nil, err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	return &File{File: tmp, path: path}, nil
}

// createTemp makes a new file in dir named after base and this process:
// .NAME.tmp-PID-RANDOM.EXT. The name keeps base's extension: libraries
// that write by name pick the format from it. It first removes what
// killed writers of base left in dir.
func createTemp(dir, base string) (*os.File, error) {
	ext := filepath.Ext(base)
	prefix := "." + strings.TrimSuffix(base, ext) + ".tmp-"
	removeStale(dir, prefix, ext)
	return os.CreateTemp(dir, prefix+strconv.Itoa(os.Getpid())+"-*"+ext)
}

// removeStale removes the files of dir named prefix+PID-RANDOM+ext whose
// process PID no longer runs: temporary files of a writer killed before
// it could remove them. Nothing else is touched: not another name, not a
// file of a process that runs (or whose pid runs something else now).
func removeStale(dir, prefix, ext string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		mid, ok := strings.CutPrefix(name, prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		mid, ok = strings.CutSuffix(mid, ext)
		pid, random, found := strings.Cut(mid, "-")
		if !ok || !found || !digits(pid) || !digits(random) {
			continue
		}
		if n, err := strconv.Atoi(pid); err == nil && n > 0 && !running(n) {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// followLinks resolves path's symlinks, a dangling last one included, to
// the file to write; a loop or an unreadable link leaves path as it is.
func followLinks(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	p := path
	for range 40 {
		st, err := os.Lstat(p)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return p
		}
		target, err := os.Readlink(p)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	return path
}

// Commit flushes the file to disk and renames it to its final path.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	if f.direct {
		if err := f.File.Close(); err != nil {
			return fmt.Errorf("write %s: %w", f.path, err)
		}
		return nil
	}
	err := f.File.Sync()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.File.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.File.Name())
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return nil
}

// Abort drops the temporary file; path is untouched.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	if !f.direct {
		os.Remove(f.File.Name())
	}
}

// Write writes path through write, atomically: on any error path is left
// as it was.
func Write(path string, write func(io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

// WritePath is Write for code that writes a file by name (a plot
// library's Save): write gets the temporary path to create, which keeps
// path's extension.
func WritePath(path string, write func(tmp string) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if f.direct {
		return writeThrough(f, write)
	}
	tmp := f.File.Name()
	f.File.Close()
	if err := write(tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, f.path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeThrough has write make a temporary file elsewhere and copies it
// into f, a file that is not renamed into place (a device, a pipe).
func writeThrough(f *File, write func(tmp string) error) error {
	defer f.Abort()
	tmp, err := createTemp(os.TempDir(), filepath.Base(f.path))
	if err != nil {
		return err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	if err := write(tmp.Name()); err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	in, err := os.Open(tmp.Name())
	if err != nil {
		return err
	}
	defer in.Close()
	if _, err := io.Copy(f.File, in); err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return f.Commit()
}

// ErrNotWritable marks an output path that cannot be written.
var ErrNotWritable = errors.New("not writable")

// CheckWritable reports whether a file can be written at path: its
// directory exists and takes a new file, and path is not a directory (an
// existing device or pipe passes). It creates and removes a temporary
// file in that directory, nothing else.
func CheckWritable(path string) error {
	path = followLinks(path)
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s: %w: it is a directory", path, ErrNotWritable)
	} else if err == nil && !st.Mode().IsRegular() {
		return nil // a device or a pipe, written directly
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%s: %w: directory %s: %w", path, ErrNotWritable, dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("%s: %w: %s is not a directory", path, ErrNotWritable, dir)
	}
	return probe(path, dir)
}

// CheckWritableDir reports whether dir can hold new files: it is a
// directory that takes a new file, or it is missing and its parent is
// such a directory (it would be created).
func CheckWritableDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case err == nil && !st.IsDir():
		return fmt.Errorf("%s: %w: it is a file, not a directory", dir, ErrNotWritable)
	case errors.Is(err, fs.ErrNotExist):
		parent := filepath.Dir(filepath.Clean(dir))
		if pst, perr := os.Stat(parent); perr != nil || !pst.IsDir() {
			return fmt.Errorf("%s: %w: its parent %s is not a directory", dir, ErrNotWritable, parent)
		}
		return probe(dir, parent)
	case err != nil:
		return fmt.Errorf("%s: %w: %w", dir, ErrNotWritable, err)
	}
	return probe(dir, dir)
}

// probe creates and removes a file in dir; path is what the error names.
func probe(path, dir string) error {
	const prefix = ".locksim-probe-"
	removeStale(dir, prefix, "")
	tmp, err := os.CreateTemp(dir, prefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return fmt.Errorf("%s: %w: %w", path, ErrNotWritable, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}
