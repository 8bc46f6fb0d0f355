package gate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// fake breaks the pattern's first claim in the runs where breaks says so,
// and fails the runs where fails says so.
type fake struct {
	breaks func(pattern, scenario string, seed uint64) bool
	fails  func(pattern, scenario string, seed uint64) bool
}

func (f fake) run(cfg sim.Config) (*sim.Result, error) {
	p, s := cfg.Pattern.Name, cfg.Scenario.Name
	if f.fails != nil && f.fails(p, s, cfg.Seed) {
		return nil, fmt.Errorf("stuck goroutine at seed %d", cfg.Seed)
	}
	r := &sim.Result{Claims: explore.ClaimNames(cfg.Pattern.Claims), Violated: []string{}}
	if f.breaks(p, s, cfg.Seed) && len(r.Claims) > 0 {
		r.Violated = r.Claims[:1]
	}
	return r, nil
}

// standard: basic breaks under gc-pause from seed 3 on; basic-del breaks
// under partition from seed 2 on; nothing else breaks.
var standard = fake{breaks: func(p, s string, seed uint64) bool {
	return p == "basic" && s == "gc-pause" && seed >= 3 || p == "basic-del" && s == "partition" && seed >= 2
}}

func check(t *testing.T, text string, f fake) *Result {
	t.Helper()
	m, err := Parse("x.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(context.Background(), m, Options{Seeds: 6, Parallel: 2, Run: f.run})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// lineDeviations keeps the deviations about lines (not coverage or
// variants absent from a small test matrix).
func lineDeviations(r *Result) []Deviation {
	var out []Deviation
	for _, d := range r.Deviations {
		if d.Line > 0 {
			out = append(out, d)
		}
	}
	return out
}

const good = `basic gc-pause breaks mutex   # no fencing
basic partition holds mutex
basic-del partition breaks mutex # deletes c2's lock
variant basic-del of basic
`

func TestCheckAsExpected(t *testing.T) {
	res := check(t, good, standard)
	if d := lineDeviations(res); len(d) != 0 {
		t.Fatalf("deviations %+v, want none", d)
	}
	if len(res.Checks) != 3 || res.Runs != 18 || res.Cells != 3 {
		t.Errorf("%d checks, %d cells, %d runs; want 3, 3, 18", len(res.Checks), res.Cells, res.Runs)
	}
	var caught *Catch
	for i, c := range res.Variants {
		if c.Variant == "basic-del" {
			caught = &res.Variants[i]
		}
	}
	if caught == nil || !caught.Caught || caught.Scenario != "partition" || caught.Claim != "mutex" || *caught.Seed != 2 {
		t.Errorf("basic-del catch = %+v, want caught under partition, mutex, seed 2", caught)
	}
}

func TestCheckReportsDeviations(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		f          fake
		want       []string // in the one deviation of line 1, as text
	}{
		{"holds broken", "basic gc-pause holds mutex\n", standard, []string{
			"DEVIATION x.txt:1: basic under gc-pause holds mutex",
			"expected: no run of seeds 1..6 breaks mutex",
			"seen:     4 of 6 runs broke mutex, the first at seed 3",
			"replay:   locksim run --pattern basic --scenario gc-pause --seed 3"}},
		{"breaks never seen", "basic partition breaks mutex # nothing\n", standard, []string{
			"DEVIATION x.txt:1: basic under partition breaks mutex",
			"expected: some run of seeds 1..6 breaks mutex (the suite can see this fault)",
			"seen:     none of 6 runs broke mutex",
			"replay:   locksim explore --pattern basic --scenario partition --seeds 6 --seed-start 1"}},
		{"runs fail", "basic partition holds mutex\n", fake{breaks: standard.breaks,
			fails: func(_, _ string, seed uint64) bool { return seed == 4 || seed == 5 }}, []string{
			"DEVIATION x.txt:1: basic under partition: runs did not complete",
			"seen:     2 of 6 runs failed; seed 4: stuck goroutine at seed 4",
			"replay:   locksim run --pattern basic --scenario partition --seed 4"}},
		{"variant not caught", good, fake{breaks: func(p, s string, seed uint64) bool {
			return s == "partition" // basic breaks there too
		}}, []string{"broken variant basic-del is not caught", "partition mutex: broken in 6 of 6 runs"}},
	} {
		res := check(t, tc.text, tc.f)
		if res.OK() {
			t.Errorf("%s: check OK, want deviations", tc.name)
			continue
		}
		var b strings.Builder
		if err := res.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.name, w, b.String())
			}
		}
	}
}

// fullMatrix classifies every claim of every correct pattern under every
// built-in scenario as "may", except the line skip (pattern scenario).
func fullMatrix(skip string) string {
	var b strings.Builder
	for _, p := range pattern.All() {
		for _, s := range scenario.Builtins() {
			if claims := explore.ClaimNames(p.Claims); !p.Broken && len(claims) > 0 && p.Name+" "+s.Name != skip {
				fmt.Fprintf(&b, "%s %s may %s # test\n", p.Name, s.Name, strings.Join(claims, ","))
			}
		}
	}
	return b.String()
}

func TestCheckAsksEveryCorrectCellClassified(t *testing.T) {
	res := check(t, fullMatrix(""), standard)
	for _, d := range res.Deviations {
		if strings.Contains(d.What, "has no line") {
			t.Errorf("full matrix: %s", d.What)
		}
	}
	res = check(t, fullMatrix("fenced gc-pause"), standard)
	var missing []string
	for _, d := range res.Deviations {
		if strings.Contains(d.What, "has no line") {
			missing = append(missing, d.What)
		}
	}
	want := "fenced under gc-pause: claim safe-store has no line, fenced under gc-pause: claim fencing has no line, fenced under gc-pause: claim progress has no line, fenced under gc-pause: claim loss-signal has no line"
	if got := strings.Join(missing, ", "); got != want {
		t.Errorf("without fenced gc-pause: coverage deviations %q, want %q", got, want)
	}
}

func TestCheckAsksEveryVariant(t *testing.T) {
	res := check(t, good, standard)
	for _, p := range pattern.All() {
		if !p.Broken || p.Name == "basic-del" {
			continue
		}
		want := fmt.Sprintf("broken variant %s is not in the matrix", p.Name)
		found := false
		for _, d := range res.Deviations {
			found = found || d.What == want
		}
		if !found {
			t.Errorf("no deviation %q", want)
		}
	}
}

func TestCheckExemptVariant(t *testing.T) {
	exempt := good + "variant reentrant-nocount of reentrant exempt # the workload never re-enters\n"
	res := check(t, exempt, standard)
	if d := lineDeviations(res); len(d) != 0 {
		t.Errorf("an exempt variant that is not caught: deviations %+v, want none", d)
	}
	caughtExempt := strings.Replace(good, "variant basic-del of basic", "variant basic-del of basic exempt # says it cannot be caught", 1)
	res = check(t, caughtExempt, standard)
	d := lineDeviations(res)
	if len(d) != 1 || d[0].What != "broken variant basic-del is marked exempt but is caught" || d[0].Line != 4 {
		t.Errorf("an exempt variant that is caught: deviations %+v, want one on line 4 saying so", d)
	}
}

// A check stopped part way judges the cells that ran every seed, and no
// more: no coverage or variant deviations from the cells it never ran.
func TestCheckStoppedIsPartial(t *testing.T) {
	m, err := Parse("x.txt", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	run := func(cfg sim.Config) (*sim.Result, error) {
		if calls++; calls == 8 {
			cancel()
		}
		return standard.run(cfg)
	}
	res, err := Check(ctx, m, Options{Seeds: 6, Parallel: 1, Run: run})
	if !errors.Is(err, context.Canceled) || res == nil {
		t.Fatalf("Check stopped at the 8th run = %v, %v; want a partial result and context.Canceled", res, err)
	}
	if res.Partial == nil || res.Partial.Done != 8 || res.Partial.Total != 18 || res.OK() {
		t.Fatalf("partial = %+v, OK %v; want 8 of 18 runs and not OK", res.Partial, res.OK())
	}
	if len(res.Checks) != 1 || res.Checks[0].Line != 1 || !res.Checks[0].OK || len(res.Deviations) != 0 {
		t.Errorf("checks %+v, deviations %+v; want line 1 (the one finished cell) judged ok, nothing else", res.Checks, res.Deviations)
	}
	var text strings.Builder
	if err := res.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "check: PARTIAL: stopped after 8 of 18 runs") || strings.Contains(text.String(), "check: ok") {
		t.Errorf("text of a partial check:\n%s", text.String())
	}
}
