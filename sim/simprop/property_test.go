package simprop

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/locksim/locksim/pattern"
)

// checksPer is each correct pattern's number of checks per property in a
// plain go test (-rapid.checks overrides it): the patterns whose scripts
// the simulated nodes run through a Lua interpreter cost ten times more a
// run, and get fewer.
var checksPer = map[string]int{
	"basic": 200, "reentrant": 200, "watchdog": 200, "service": 200, "fenced": 200, "redlock": 120, "redlock-watchdog": 120,
	"watchdog-fenced": 100, "service-fenced": 25,
	"fair": 25, "fair-fenced": 25, "rwlock": 25, "rwlock-read-mostly": 25, "rwlock-write": 25, "semaphore": 25,
}

// failuresDir keeps the counterexample of a property that fails, beside
// rapid's fail file (testdata/rapid/), so that both survive the run.
const failuresDir = "testdata/failures"

// TestProperties: every correct pattern keeps every property it claims
// (no false alarm). rapid draws the seed, so each run explores new
// schedules; a failure is shrunk, written to testdata/failures/ as a
// scenario file with its replay command, and rapid's fail file replays
// it on every later run.
func TestProperties(t *testing.T) {
	for _, p := range Properties() {
		for _, name := range p.Patterns {
			t.Run(p.Name+"/"+name, func(t *testing.T) {
				pat, err := pattern.Lookup(name)
				if err != nil {
					t.Fatal(err)
				}
				n, ok := checksPer[name]
				if !ok {
					t.Fatalf("no check budget for %s: add it to checksPer", name)
				}
				withRapid(t, map[string]string{"rapid.checks": strconv.Itoa(checksOr(n))}, func() {
					rapid.Check(t, p.Prop(pat, failuresDir, nil))
				})
			})
		}
	}
}

// TestEveryClaimIsChecked: each correct pattern that claims mutual
// exclusion, a safe store or fencing has a property for it, and each that
// claims a loss signal is checked by the loss-signal property.
func TestEveryClaimIsChecked(t *testing.T) {
	ls, err := Lookup("loss-signal")
	if err != nil {
		t.Fatal(err)
	}
	for _, pat := range pattern.All() {
		if pat.Broken {
			continue
		}
		c := pat.Claims
		if (c.Mutex || c.SafeStore || c.Fencing || c.MaxHolders > 0) && len(Of(pat.Name)) == 0 {
			t.Errorf("%s claims %+v but no property checks it", pat.Name, c)
		}
		if c.LossSignal > 0 && !ls.Claimed(pat.Name) {
			t.Errorf("%s claims a loss signal within %d%% of the TTL but the loss-signal property does not check it", pat.Name, c.LossSignal)
		}
	}
	if len(Of("rwlock")) == 0 {
		t.Error("rwlock claims writer exclusion (not a catalog claim) but no property checks it")
	}
}

// TestFailureMessage: a failing property names the violation, the schedule,
// the scenario file it wrote and the replay command; the file is there.
func TestFailureMessage(t *testing.T) {
	p, _ := Lookup("mutex")
	pat, _ := pattern.Lookup("service-seconds")
	dir := t.TempDir()
	h := hunt(t, p, pat, 5, 1, shrinkDefault, dir)
	if !h.Found() {
		t.Fatal("service-seconds kept mutual exclusion for 5 checks; its sub-second TTL is EXPIRE 0")
	}
	path := filepath.Join(dir, "service-seconds.mutex.txt")
	for _, want := range []string{"service-seconds breaks property mutex", "mutual exclusion:", "scenario written to " + path,
		"replay: locksim run --pattern service-seconds --scenario " + path + " --seed "} {
		if !strings.Contains(h.Report, want) {
			t.Errorf("failure message lacks %q:\n%s", want, h.Report)
		}
	}
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
}

// TestLossSignalPropertyCatchesALateDone: the loss-signal property can
// fail. watchdog-late-done, whose Done waits for a renewal's outcome,
// claims the watchdog's bound; inside the envelope (a partition while a
// step runs long) its holder learns of the loss past the bound.
func TestLossSignalPropertyCatchesALateDone(t *testing.T) {
	p, err := Lookup("loss-signal")
	if err != nil {
		t.Fatal(err)
	}
	pat, err := pattern.Lookup("watchdog-late-done")
	if err != nil {
		t.Fatal(err)
	}
	h := hunt(t, p, pat, checksOr(huntChecks), 1, shrinkDefault, t.TempDir())
	if !h.Found() || !strings.Contains(h.Report, "loss signal:") {
		t.Fatalf("watchdog-late-done kept the loss-signal property for %d checks:\n%s", huntChecks, h.Report)
	}
}
