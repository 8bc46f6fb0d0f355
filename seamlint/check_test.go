package seamlint

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what Check says of a directory;
// Fatalf ends the goroutine, as testing's does.
type recorder struct {
	testing.TB // nil: Check calls only the methods below
	errors     []string
	fatal      string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// check runs Check on a recorder.
func check(dir string, minFiles int, exceptions ...Exception) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Check(r, dir, minFiles, exceptions...)
	}()
	<-done
	return r
}

// TestCheck: Check fails on every finding no exception matches and on
// every exception that matches none, passes when each finding is
// excepted, and fails at once on a path with too few files.
func TestCheck(t *testing.T) {
	root := t.TempDir()
	for rel, src := range map[string]string{
		"ok.go":           `package x`,
		"sched/loop.go":   `package sched; func f() { go f() }`,
		"sched/stall.go":  `package sched; import "time"; var t = time.NewTicker(1)`,
		"sched/a_test.go": `package sched; func g() { go g() }`,
	} {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	loop := Exception{File: "sched/loop.go", Finding: "bare go statement", Why: "the scheduler's loop"}
	stall := Exception{File: "sched/stall.go", Finding: "time.NewTicker", Why: "the stall monitor's real-time tick"}
	for _, c := range []struct {
		name       string
		dir        string
		minFiles   int
		exceptions []Exception
		errors     []string // each a substring of one error, in order
		fatal      string
	}{
		{"findings", root + "/...", 3, nil, []string{"sched/loop.go:1:27: bare go statement", "sched/stall.go:1:39: time.NewTicker escapes"}, ""},
		{"each excepted", root + "/...", 3, []Exception{loop, stall}, nil, ""},
		{"an exception of another finding", root + "/...", 3, []Exception{loop, {File: "sched/stall.go", Finding: "time.Now"}},
			[]string{"sched/stall.go:1:39: time.NewTicker escapes", `the exception sched/stall.go "time.Now" matches no finding; remove it`}, ""},
		{"an exception of another file", root + "/...", 3, []Exception{loop, stall, {File: "loop.go", Finding: "bare go statement"}},
			[]string{`the exception loop.go "bare go statement" matches no finding`}, ""},
		{"one directory", filepath.Join(root, "sched"), 2, []Exception{{File: "loop.go", Finding: "bare go statement"}},
			[]string{"time.NewTicker escapes"}, ""},
		{"too few files", root, 2, nil, nil, "checked only 1 files, want at least 2: is the path right?"},
		{"no directory", filepath.Join(root, "missing") + "/...", 1, nil, nil, "no such file or directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := check(c.dir, c.minFiles, c.exceptions...)
			if len(r.errors) != len(c.errors) {
				t.Fatalf("Check(%q) errors %q, want %d naming %q", c.dir, r.errors, len(c.errors), c.errors)
			}
			for i, want := range c.errors {
				if !strings.Contains(r.errors[i], want) {
					t.Errorf("Check(%q) error %d = %q, want it to name %q", c.dir, i, r.errors[i], want)
				}
			}
			if (c.fatal == "") != (r.fatal == "") || !strings.Contains(r.fatal, c.fatal) {
				t.Errorf("Check(%q) fatal %q, want %q", c.dir, r.fatal, c.fatal)
			}
		})
	}
}
