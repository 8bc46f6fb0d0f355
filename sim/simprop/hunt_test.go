package simprop

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/locksim/locksim/pattern"
)

// rapid has no per-call options: the number of checks, the seed, the
// shrink time and fail files are its command-line flags. The tests set
// them for the length of one rapid.Check (never in parallel) and restore
// them; a flag given on the command line (make rapid-deep passes
// -rapid.checks) wins over the tests' defaults.

// given holds the rapid flags set on the command line.
var given = map[string]string{}

func TestMain(m *testing.M) {
	flag.Parse()
	flag.Visit(func(f *flag.Flag) {
		if strings.HasPrefix(f.Name, "rapid.") {
			given[f.Name] = f.Value.String()
		}
	})
	os.Exit(m.Run())
}

// checksOr is the number of checks to run: -rapid.checks if given, else def.
func checksOr(def int) int {
	if v, ok := given["rapid.checks"]; ok {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			return n
		}
	}
	return def
}

// withRapid runs fn with the rapid flags set (those given on the command
// line keep their value) and restores them afterwards.
func withRapid(t testing.TB, set map[string]string, fn func()) {
	t.Helper()
	old := map[string]string{}
	for name, v := range set {
		f := flag.Lookup(name)
		if f == nil {
			t.Fatalf("no flag -%s: rapid's flags changed", name)
		}
		if _, ok := given[name]; ok {
			continue
		}
		old[name] = f.Value.String()
		if err := flag.Set(name, v); err != nil {
			t.Fatalf("flag -%s=%s: %v", name, v, err)
		}
	}
	defer func() {
		for name, v := range old {
			_ = flag.Set(name, v)
		}
	}()
	fn()
}

// Hunt is one search for a counterexample.
type Hunt struct {
	Checks int     // checks run up to and including the first failing one; 0 if none failed
	Ran    int     // runs made in all, shrinking included
	First  Outcome // the first failing check
	Last   Outcome // the last failing check: rapid's shrunk case
	Report string  // rapid's failure message
	Took   time.Duration
}

// Found reports whether a check failed.
func (h Hunt) Found() bool { return h.Checks > 0 }

// hunt runs p on pat under rapid without failing t: at most maxChecks
// checks from rapid seed seed, then shrinking for at most shrink. Fail
// files are not written (a hunt is expected to fail); counterexamples go
// to dir.
func hunt(t *testing.T, p Property, pat pattern.Pattern, maxChecks int, seed uint64, shrink time.Duration, dir string) Hunt {
	t.Helper()
	var h Hunt
	n := 0
	seen := func(o Outcome) {
		n++
		if o.Violation == "" && o.Err == nil {
			return
		}
		if h.Checks == 0 {
			h.Checks, h.First = n, o
		}
		h.Last = o
	}
	tb := &huntTB{name: "hunt/" + p.Name + "/" + pat.Name}
	start := time.Now()
	withRapid(t, map[string]string{"rapid.checks": strconv.Itoa(rapidChecks(maxChecks)), "rapid.seed": strconv.FormatUint(seed, 10),
		"rapid.nofailfile": "true", "rapid.shrinktime": shrink.String()}, func() {
		tb.run(func() { rapid.Check(tb, p.Prop(pat, dir, seen)) })
	})
	h.Took, h.Ran = time.Since(start), n
	h.Report = tb.errors()
	return h
}

// rapidChecks is the -rapid.checks value that makes rapid run n checks:
// under -short rapid runs a fifth of -rapid.checks, and a hunt that must
// find a counterexample within its count would then miss it.
func rapidChecks(n int) int {
	if testing.Short() {
		return n * 5
	}
	return n
}

// huntTB is a rapid.TB that records failures instead of failing a test.
// FailNow ends the goroutine it runs in, as testing.T's does; run starts
// that goroutine and waits for it.
type huntTB struct {
	name   string
	mu     sync.Mutex
	failed bool
	errs   []string
}

func (h *huntTB) run(fn func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	<-done
}

func (h *huntTB) errors() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return strings.Join(h.errs, "\n")
}

func (h *huntTB) record(msg string) {
	h.mu.Lock()
	h.failed = true
	h.errs = append(h.errs, msg)
	h.mu.Unlock()
}

func (h *huntTB) Helper()             {}
func (h *huntTB) Name() string        { return h.name }
func (h *huntTB) Logf(string, ...any) {}
func (h *huntTB) Log(...any)          {}
func (h *huntTB) Skipf(format string, args ...any) {
	h.record("skipped: " + fmt.Sprintf(format, args...))
	runtime.Goexit()
}
func (h *huntTB) Skip(args ...any)                  { h.record("skipped: " + fmt.Sprint(args...)); runtime.Goexit() }
func (h *huntTB) SkipNow()                          { h.record("skipped"); runtime.Goexit() }
func (h *huntTB) Errorf(format string, args ...any) { h.record(fmt.Sprintf(format, args...)) }
func (h *huntTB) Error(args ...any)                 { h.record(fmt.Sprint(args...)) }
func (h *huntTB) Fatalf(format string, args ...any) {
	h.record(fmt.Sprintf(format, args...))
	runtime.Goexit()
}
func (h *huntTB) Fatal(args ...any) { h.record(fmt.Sprint(args...)); runtime.Goexit() }
func (h *huntTB) FailNow()          { h.record("FailNow"); runtime.Goexit() }
func (h *huntTB) Fail()             { h.record("Fail") }

func (h *huntTB) Failed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.failed
}
