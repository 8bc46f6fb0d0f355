package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFailureKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write = %v, want %v", err, boom)
	}
	if data, _ := os.ReadFile(path); string(data) != "old" {
		t.Errorf("after a failed write the file holds %q, want %q", data, "old")
	}
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	st, _ := os.Stat(path)
	if string(data) != "new" || st.Mode().Perm() != 0o600 {
		t.Errorf("after a write: %q mode %v, want %q mode 0600 (the old file's)", data, st.Mode().Perm(), "new")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestWritePathAbortsOnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plot.png")
	err := WritePath(path, func(tmp string) error {
		os.WriteFile(tmp, []byte("partial"), 0o644)
		return errors.New("no")
	})
	if err == nil {
		t.Fatal("WritePath with a failing writer: no error")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed WritePath left %v", entries)
	}
	if err := WritePath(path, func(tmp string) error {
		if filepath.Ext(tmp) != ".png" {
			t.Errorf("temporary name %s lost the extension .png", tmp)
		}
		return os.WriteFile(tmp, []byte("png"), 0o644)
	}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "png" {
		t.Errorf("WritePath wrote %q", data)
	}
}

func TestPathsRefuseAnInputAsOutput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "mine.txt")
	if err := os.WriteFile(in, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	hard := filepath.Join(dir, "hard.txt")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, out := range []string{in, "mine.txt", "./sub/../mine.txt", link, hard} {
		var p Paths
		p.Input("--scenario", in)
		p.Output("--trace", out)
		if err := p.Check(); !errors.Is(err, ErrSamePath) || !strings.Contains(err.Error(), "--scenario") {
			t.Errorf("output %s of input %s: Check = %v, want ErrSamePath naming --scenario", out, in, err)
		}
	}
	var p Paths
	p.Output("--trace", "x.txt")
	p.Output("--history", filepath.Join(dir, "x.txt"))
	if err := p.Check(); !errors.Is(err, ErrSamePath) || !strings.Contains(err.Error(), "--trace") || !strings.Contains(err.Error(), "--history") {
		t.Errorf("two outputs to one file: Check = %v, want ErrSamePath naming both flags", err)
	}
	var ok Paths
	ok.Input("--scenario", in)
	ok.Output("--trace", "trace.txt")
	ok.Output("--history", "h.json")
	if err := ok.Check(); err != nil {
		t.Errorf("distinct paths: Check = %v", err)
	}
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		dir  bool
		ok   bool
	}{
		{filepath.Join(dir, "new.json"), false, true},
		{file, false, true},
		{dir, false, false},
		{filepath.Join(dir, "missing", "x.json"), false, false},
		{filepath.Join(file, "x.json"), false, false},
		{"/proc/x", false, false},
		{filepath.Join(dir, "newdir"), true, true},
		{dir, true, true},
		{file, true, false},
		{filepath.Join(dir, "missing", "deeper"), true, false},
	} {
		check := CheckWritable
		if c.dir {
			check = CheckWritableDir
		}
		err := check(c.path)
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrNotWritable)) {
			t.Errorf("check(%s, dir=%v) = %v, want ok=%v", c.path, c.dir, err, c.ok)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the checks left files: %v", entries)
	}
}

// A device is written, not replaced; a symlink's target is replaced and
// the link kept.
func TestWriteDeviceAndSymlink(t *testing.T) {
	for _, write := range []func() error{
		func() error {
			return Write(os.DevNull, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err })
		},
		func() error {
			return WritePath(os.DevNull, func(tmp string) error { return os.WriteFile(tmp, []byte("x"), 0o644) })
		},
	} {
		if err := write(); err != nil {
			t.Fatalf("write to %s: %v", os.DevNull, err)
		}
		if st, err := os.Stat(os.DevNull); err != nil || st.Mode()&os.ModeCharDevice == 0 {
			t.Fatalf("%s is no longer a device after a write: %v %v", os.DevNull, st.Mode(), err)
		}
	}
	if err := CheckWritable(os.DevNull); err != nil {
		t.Errorf("CheckWritable(%s) = %v", os.DevNull, err)
	}
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target.txt"), filepath.Join(dir, "link.txt")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	st, err := os.Lstat(link)
	if data, _ := os.ReadFile(target); err != nil || st.Mode()&os.ModeSymlink == 0 || string(data) != "new" {
		t.Errorf("after writing through a symlink: link mode %v (%v), target %q; want the link kept and the target new", st.Mode(), err, data)
	}
}
