package seamlint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCatches proves the lint by feeding it code that breaks each rule.
func TestCatches(t *testing.T) {
	bad := map[string]string{
		"time.Now":            `package x; import "time"; func f() { _ = time.Now() }`,
		"renamed time":        `package x; import tm "time"; func f() { _ = tm.Now() }`,
		"time.Sleep":          `package x; import "time"; func f() { time.Sleep(1) }`,
		"time.NewTicker":      `package x; import "time"; func f() { time.NewTicker(1) }`,
		"context.WithTimeout": `package x; import "context"; func f() { context.WithTimeout(nil, 1) }`,
		"global rand":         `package x; import "math/rand/v2"; func f() { _ = rand.IntN(3) }`,
		"math/rand v1":        `package x; import "math/rand"; var _ = rand.New`,
		"go statement":        `package x; func f() { go f() }`,
	}
	for name, src := range bad {
		v, err := Source(name+".go", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if len(v) == 0 {
			t.Errorf("lint missed %s in %q", name, src)
		}
	}
	ok := `package x; import ("time"; "context"); func f(ctx context.Context) time.Duration { _, c := context.WithCancel(ctx); c(); return time.Millisecond }`
	if v, err := Source("ok.go", []byte(ok)); err != nil || len(v) != 0 {
		t.Errorf("lint flagged allowed code: %v (err %v)", v, err)
	}
	if _, err := Source("broken.go", []byte("package")); err == nil {
		t.Errorf("unparsable source: no error")
	}
}

// TestTree: the walk checks subdirectories and skips testdata and hidden
// ones, as "./..." does.
func TestTree(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.go", `package x`)
	write("sub/bad.go", `package sub; func f() { go f() }`)
	write("sub/bad_test.go", `package sub; func g() { go g() }`)
	write("testdata/bad.go", `package td; func f() { go f() }`)
	write(".hidden/bad.go", `package h; func f() { go f() }`)
	v, checked, err := Tree(root)
	if err != nil {
		t.Fatal(err)
	}
	if checked != 2 || len(v) != 1 || !strings.Contains(v[0], filepath.Join("sub", "bad.go")) {
		t.Errorf("Tree = %v (%d files checked), want one violation in sub/bad.go of 2 files", v, checked)
	}
}
