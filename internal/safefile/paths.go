package safefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrSamePath marks an output path that names an input or another output.
var ErrSamePath = errors.New("same file")

// Paths collects the inputs and outputs of one command, each with the
// flag or argument that named it, and refuses any output that is also an
// input or another output.
type Paths struct {
	inputs, outputs []named
}

type named struct {
	what, path string // what: the flag or argument ("--trace", "shard 2")
	resolved   string // absolute, symlinks resolved as far as they exist
	info       os.FileInfo
	dir        bool // an output directory
}

// Input records an input path (a file or a directory).
func (p *Paths) Input(what, path string) {
	if path == "" {
		return
	}
	p.inputs = append(p.inputs, resolve(what, path))
}

// Output records an output path; "" (none) is ignored.
func (p *Paths) Output(what, path string) {
	if path == "" {
		return
	}
	p.outputs = append(p.outputs, resolve(what, path))
}

// OutputDir records an output directory, created if missing.
func (p *Paths) OutputDir(what, path string) {
	n := resolve(what, path)
	n.dir = true
	p.outputs = append(p.outputs, n)
}

// Check refuses an output that is an input or another output, naming
// both, then one that cannot be written (see CheckWritable and
// CheckWritableDir). It creates nothing but a probe file it removes.
func (p *Paths) Check() error {
	if err := p.checkSame(); err != nil {
		return err
	}
	for _, o := range p.outputs {
		check := CheckWritable
		if o.dir {
			check = CheckWritableDir
		}
		if err := check(o.path); err != nil {
			return fmt.Errorf("%s %w", o.what, err)
		}
	}
	return nil
}

func (p *Paths) checkSame() error {
	for i, o := range p.outputs {
		for _, in := range p.inputs {
			if same(o, in) {
				return fmt.Errorf("%s %s is the input %s %s: %w: refusing to overwrite an input", o.what, o.path, in.what, in.path, ErrSamePath)
			}
		}
		for _, other := range p.outputs[:i] {
			if same(o, other) {
				return fmt.Errorf("%s %s and %s %s: %w: each output needs its own file", other.what, other.path, o.what, o.path, ErrSamePath)
			}
		}
	}
	return nil
}

// resolve makes path absolute and follows its symlinks: the whole path
// when it exists, else its directory, so that a new file is compared by
// the place it will be created at.
func resolve(what, path string) named {
	n := named{what: what, path: path}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = filepath.Clean(path)
	}
	n.resolved = abs
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		n.resolved = r
	} else if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		n.resolved = filepath.Join(dir, filepath.Base(abs))
	}
	if st, err := os.Stat(abs); err == nil {
		n.info = st
	}
	return n
}

// same reports whether two resolved paths are one file: the same name, or
// for existing files the same inode (a hard link).
func same(a, b named) bool {
	if a.resolved == b.resolved {
		return true
	}
	return a.info != nil && b.info != nil && os.SameFile(a.info, b.info)
}
