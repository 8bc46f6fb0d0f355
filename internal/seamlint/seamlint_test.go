package seamlint

import "testing"

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
