package simprop

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// TestCounterexampleRoundTrip: a counterexample written to a file reads
// back as the same case, property and pattern, and replays the violation
// through sim.Run.
func TestCounterexampleRoundTrip(t *testing.T) {
	p, err := Lookup("mutex")
	if err != nil {
		t.Fatal(err)
	}
	c := Case{Scenario: p.Base(1), Seed: 42}
	c.Scenario.Faults = []fault.Fault{{Kind: fault.Slow, Target: "c1", When: fault.When{Client: "c1", Point: fault.Work, N: 2}, For: 30 * time.Millisecond}}
	_, v, err := p.Run(mustPattern(t, "service-seconds"), c)
	if err != nil || v == "" {
		t.Fatalf("service-seconds under %s: violation %q, error %v; want a violation", c.GoString(), v, err)
	}
	cx := Counterexample{Property: p, Pattern: "service-seconds", Case: c, Violation: v}
	path, err := cx.Save(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Pattern != cx.Pattern || back.Property.Name != p.Name || back.Case.Seed != c.Seed || back.Violation != v {
		t.Errorf("Load = %s/%s seed %d %q, want %s/%s seed %d %q", back.Pattern, back.Property.Name, back.Case.Seed, back.Violation,
			cx.Pattern, p.Name, c.Seed, v)
	}
	if d := cmp.Diff(c.Scenario, back.Case.Scenario, scenarioOpts); d != "" {
		t.Errorf("scenario round trip (-written +read):\n%s", d)
	}
	again, err := Replay(back, "service-seconds")
	if err != nil || again != v {
		t.Errorf("Replay = %q, %v; want the same violation %q", again, err, v)
	}
}

// TestCounterexampleText: the file opens with what broke and how to
// replay it; a nested property says that locksim run alone does not nest.
func TestCounterexampleText(t *testing.T) {
	for _, name := range []string{"mutex", "mutex-nested"} {
		p, _ := Lookup(name)
		cx := Counterexample{Property: p, Pattern: "reentrant-nocount", Case: Case{Scenario: p.Base(1), Seed: 3}, Violation: "x"}
		text := cx.Text("f.txt")
		want := "# replay: locksim run --pattern reentrant-nocount --scenario f.txt --seed 3"
		if !strings.Contains(text, want) || !strings.HasPrefix(text, "# counterexample: reentrant-nocount breaks property "+name) {
			t.Errorf("%s: text lacks %q:\n%s", name, want, text)
		}
		if strings.Contains(text, "simprop.Replay") != p.Nested {
			t.Errorf("%s: nested %v, but the replay note says otherwise:\n%s", name, p.Nested, text)
		}
	}
}

func TestLoadNamesWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ text, want string }{
		{"start clients=2\n", "no counterexample header"},
		{"# counterexample: basic breaks property none (1 fault(s))\nstart clients=2\n", `unknown property "none"`},
		{"# counterexample: basic breaks property mutex (0 fault(s))\nstart clients=0\n", "field clients"},
	} {
		path := dir + "/c.txt"
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%q) = %v, want %q", tc.text, err, tc.want)
		}
	}
}

func mustPattern(t *testing.T, name string) pattern.Pattern {
	t.Helper()
	p, err := pattern.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStaleReentrantRelease replays a schedule that once broke Reentrant:
// a release that outlives its Release took an entry of the owner's next
// holding and freed it. With an entry per acquisition in the hash, neither
// Reentrant nor Basic breaks.
func TestStaleReentrantRelease(t *testing.T) {
	f, err := os.Open("testdata/outside/reentrant-stale-release.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc, err := scenario.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := MutexEnvelope().Admits(sc); err == nil {
		t.Error("the stale release lies inside the mutex envelope; it should not")
	}
	for _, tc := range []struct {
		pattern string
		broken  bool
	}{{"reentrant", false}, {"service", false}, {"basic", false}} {
		res, err := sim.Run(sim.Config{Pattern: mustPattern(t, tc.pattern), Scenario: sc, Seed: 6})
		if err != nil {
			t.Fatal(err)
		}
		if (res.Safety.Overlaps > 0) != tc.broken {
			t.Errorf("%s, seed 6: %s; want a violation: %v", tc.pattern, res.Summary(), tc.broken)
		}
	}
}
