package seamlint

import (
	"path/filepath"
	"strings"
	"testing"
)

// Exception is a finding a package's own code is allowed, with the
// reason: it matches each finding in File (a slash path relative to the
// directory checked) whose text contains Finding ("bare go statement",
// "time.NewTicker"). Line numbers are left out, so that edits elsewhere
// in the file do not move it.
type Exception struct {
	File, Finding, Why string
}

// Check is a package's lint test: it fails t for every finding in the
// non-test Go files of dir (dir/... for dir and the directories below
// it, as the go command reads it; relative to the test's package
// directory) that no exception matches, and for every exception that
// matches no finding (stale: remove it). Fewer than minFiles files
// checked, or a directory that cannot be read, fails it at once: the
// path is wrong. Check calls only t's Helper, Errorf and Fatalf.
//
//	func TestNoEscapeFromSeams(t *testing.T) { seamlint.Check(t, ".", 5) }
func Check(t testing.TB, dir string, minFiles int, exceptions ...Exception) {
	t.Helper()
	root, tree := strings.CutSuffix(dir, "/...")
	var found []string
	var checked int
	var err error
	if tree {
		found, checked, err = Tree(root)
	} else {
		found, checked, err = Dir(dir)
	}
	if err != nil {
		t.Fatalf("seamlint.Check(%q): %v", dir, err)
	}
	if checked < minFiles {
		t.Fatalf("seamlint.Check(%q): checked only %d files, want at least %d: is the path right?", dir, checked, minFiles)
	}
	used := make([]bool, len(exceptions))
	for _, f := range found {
		i := matching(root, f, exceptions)
		if i < 0 {
			t.Errorf("%s (escapes the seams; if this code must, give seamlint.Check an Exception with the reason)", f)
			continue
		}
		used[i] = true
	}
	for i, e := range exceptions {
		if !used[i] {
			t.Errorf("seamlint.Check(%q): the exception %s %q matches no finding; remove it", dir, e.File, e.Finding)
		}
	}
}

// matching returns the index of the first exception that the finding f
// (in a file below root) matches, or -1.
func matching(root, f string, exceptions []Exception) int {
	file, what, ok := strings.Cut(f, ".go:")
	if !ok {
		return -1
	}
	rel, err := filepath.Rel(root, file+".go")
	if err != nil {
		return -1
	}
	for i, e := range exceptions {
		if filepath.ToSlash(rel) == e.File && strings.Contains(what, e.Finding) {
			return i
		}
	}
	return -1
}
