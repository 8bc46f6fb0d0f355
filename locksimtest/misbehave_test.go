package locksimtest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locksimtest"
	"github.com/locksim/locksim/pattern"
)

// fakeTB records what Run reports instead of failing the real test.
type fakeTB struct {
	testing.TB
	name   string
	mu     sync.Mutex
	errors []string
	fatal  bool
}

func (f *fakeTB) Helper()      {}
func (f *fakeTB) Name() string { return f.name }
func (f *fakeTB) Log(...any)   {}
func (f *fakeTB) Logf(string, ...any) {
}
func (f *fakeTB) Error(args ...any) { f.record(fmt.Sprint(args...)) }
func (f *fakeTB) Errorf(format string, args ...any) {
	f.record(fmt.Sprintf(format, args...))
}
func (f *fakeTB) Fatal(args ...any) { f.record(fmt.Sprint(args...)); f.fatal = true; runtime.Goexit() }
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.record(fmt.Sprintf(format, args...))
	f.fatal = true
	runtime.Goexit()
}
func (f *fakeTB) Failed() bool { return len(f.errors) > 0 }

func (f *fakeTB) record(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, s)
}

// runFake runs fn with a fake TB in a goroutine of its own (Fatal ends it).
func runFake(t *testing.T, fn func(tb testing.TB)) *fakeTB {
	f := &fakeTB{TB: t, name: "TestMine"}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	return f
}

// misbehaving is a user's lock that goes wrong in Acquire.
type misbehaving struct {
	inner locks.Locker
	how   string
}

func (m *misbehaving) Acquire(ctx context.Context) (*locks.Lease, error) {
	switch m.how {
	case "panic":
		panic("my lock is broken")
	case "nil-lease":
		return nil, nil
	case "deadlock":
		select {} // blocks forever, outside the seams
	case "wall-sleep":
		time.Sleep(time.Hour) // the wall clock: escapes the simulator
	}
	return m.inner.Acquire(ctx)
}

func (m *misbehaving) Release(ctx context.Context, l *locks.Lease) error {
	return m.inner.Release(ctx, l)
}

func misbehavingPattern(how string) pattern.Pattern {
	return pattern.Pattern{Name: "mine-" + how, Nodes: 1, Claims: pattern.Claims{Mutex: true},
		New: pattern.Single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			if how == "new-panic" {
				panic("constructor is broken")
			}
			b, err := locks.NewBasic(r, k, o)
			return &misbehaving{inner: b, how: how}, err
		})}
}

// TestMisbehavingPatternGetsAVerdict: a pattern that panics, returns a nil
// lease with a nil error, deadlocks or sleeps on the wall clock fails the
// test naming the pattern, the scenario, the seed and the cause; the
// harness neither hangs nor crashes.
func TestMisbehavingPatternGetsAVerdict(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "short.txt")
	if err := os.WriteFile(sc, []byte("scenario short\nstart clients=2 duration=200ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ how, cause string }{
		{"panic", "panicked: my lock is broken"},
		{"new-panic", "New panicked: constructor is broken"},
		{"nil-lease", "Acquire returned a nil lease and a nil error"},
		{"deadlock", "blocks outside the simulator's seams"},
		{"wall-sleep", "blocks outside the simulator's seams"},
	} {
		t.Run(tc.how, func(t *testing.T) {
			p := misbehavingPattern(tc.how)
			o := locksimtest.Options{Seeds: 2, NoBuiltins: true, Scenarios: []string{sc}, Dir: dir, StallAfter: 300 * time.Millisecond}
			f := runFake(t, func(tb testing.TB) { locksimtest.Run(tb, p, o) })
			if len(f.errors) != 1 {
				t.Fatalf("Run reported %d errors, want 1: %q", len(f.errors), f.errors)
			}
			for _, want := range []string{p.Name, "under short", "seed 1", tc.cause,
				"replay: go test -count=1 -run '^TestMine$' -locksim.scenario=short -locksim.seed=1"} {
				if !strings.Contains(f.errors[0], want) {
					t.Errorf("Run reported:\n%s\nwant it to name %q", f.errors[0], want)
				}
			}
		})
	}
}

// TestRunFailsOnABrokenVariant: Run fails on a broken variant of basic
// under the scenario that catches it, naming the seed and the claim; the
// same call on basic passes.
func TestRunFailsOnABrokenVariant(t *testing.T) {
	o := locksimtest.Options{Seeds: 5, Dir: t.TempDir(), NoBuiltins: false,
		Expect: []string{"client-clock-drift breaks mutex", "failover-async-replication breaks mutex",
			"gc-pause breaks mutex", "node-clock-jump breaks mutex", "node-restart-without-persistence breaks mutex",
			"slow-work breaks mutex"}}
	basic, variant := lookup(t, "basic"), lookup(t, "basic-del")
	basic.Claims.LossSignal = 0 // the mutex is at stake here; the variant claims no more
	if f := runFake(t, func(tb testing.TB) { locksimtest.Run(tb, basic, o) }); f.Failed() {
		t.Fatalf("basic failed: %q", f.errors)
	}
	variant.Name, variant.Claims = "basic", basic.Claims // the variant passed off as the pattern: the same lines apply
	f := runFake(t, func(tb testing.TB) { locksimtest.Run(tb, variant, o) })
	if !f.Failed() {
		t.Fatal("Run passed basic-del, which releases the next holder's lock")
	}
	if !strings.Contains(f.errors[0], "wrong-owner-release: claim mutex broken at seed ") {
		t.Errorf("Run reported %q, want mutex broken under wrong-owner-release with its seed", f.errors)
	}
}

// TestLint: the lint fails a package that escapes the seams and passes one
// that does not; a wrong path is an error.
func TestLint(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "lock.go")
	if err := os.WriteFile(bad, []byte("package mine\nimport \"time\"\nfunc wait() { time.Sleep(time.Second); go wait() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := runFake(t, func(tb testing.TB) { locksimtest.Lint(tb, dir+"/...") })
	if len(f.errors) != 2 || !strings.Contains(f.errors[0], "time.Sleep") || !strings.Contains(f.errors[1], "bare go statement") {
		t.Errorf("Lint reported %q, want time.Sleep and the go statement", f.errors)
	}
	if f := runFake(t, func(tb testing.TB) { locksimtest.Lint(tb, "../locks") }); f.Failed() {
		t.Errorf("Lint of package locks: %q", f.errors)
	}
	if f := runFake(t, func(tb testing.TB) { locksimtest.Lint(tb, filepath.Join(dir, "none")) }); !f.fatal {
		t.Errorf("Lint of a missing directory passed: %q", f.errors)
	}
}
