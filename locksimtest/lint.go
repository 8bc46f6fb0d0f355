package locksimtest

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/seamlint"
)

// Lint fails t for every call in the non-test Go files of dir that escapes
// the seams the simulator controls (time.Now, time.Sleep, timers and
// tickers, context.WithTimeout/WithDeadline, global math/rand, bare go
// statements): see package seamlint. A dir ending in "/..." checks the
// directories below it too, as the go command reads it; paths are
// relative to the test's package directory. A dir with no Go file fails:
// the path is wrong.
func Lint(t testing.TB, dir string) {
	t.Helper()
	var v []string
	var n int
	var err error
	if root, tree := strings.CutSuffix(dir, "/..."); tree {
		v, n, err = seamlint.Tree(root)
	} else {
		v, n, err = seamlint.Dir(dir)
	}
	if err != nil {
		t.Fatalf("locksimtest.Lint(%q): %v", dir, err)
	}
	if n == 0 {
		t.Fatalf("locksimtest.Lint(%q): no Go files checked: is the path right?", dir)
	}
	for _, s := range v {
		t.Errorf("escapes the seams: %s", s)
	}
}
