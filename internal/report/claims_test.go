package report

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

var (
	promptOnce sync.Once
	promptM    *Measurements
	promptErr  error
)

// promptOnly measures fenced under node-clock-jump (2 seeds): a run in
// which the jump cuts the holder's key short, so the holder learns of its
// loss late (loss-signal) while its tokens keep every update (no safety
// claim breaks), and porcupine finds the history linearizable.
func promptOnly(t *testing.T) *Measurements {
	t.Helper()
	promptOnce.Do(func() {
		var cfg Config
		p, err := pattern.Lookup("fenced")
		if err != nil {
			promptErr = err
			return
		}
		cfg.Patterns = []pattern.Pattern{p}
		for _, b := range scenario.Builtins() {
			if b.Name == "node-clock-jump" {
				cfg.Scenarios = append(cfg.Scenarios, b)
			}
		}
		cfg.Seeds = 2
		promptM, promptErr = Measure(context.Background(), cfg)
	})
	if promptErr != nil {
		t.Fatal(promptErr)
	}
	c := promptM.Cell("fenced", "node-clock-jump")
	if c == nil || c.Violating == 0 || !slices.Equal(c.Violated, []string{"loss-signal"}) || c.LostRuns != 0 {
		t.Fatalf("fenced under node-clock-jump: %+v; the test needs seeds that broke loss-signal alone, with no lost update", c)
	}
	return promptM
}

// section returns the Markdown from the heading line that starts with
// title up to the next heading of the same or a higher level.
func section(t *testing.T, md, title string) string {
	t.Helper()
	i := strings.Index(md, "\n"+title)
	if i < 0 {
		t.Fatalf("no section %q", title)
	}
	rest := md[i+1:]
	level := strings.Index(rest, " ")
	end := strings.Index(rest[1:], "\n"+rest[:level]+" ")
	if end < 0 {
		return rest
	}
	return rest[:end+1]
}

// tableRow returns the table row of a section that starts with "| name |".
func tableRow(t *testing.T, sec, name string) string {
	t.Helper()
	for _, l := range strings.Split(sec, "\n") {
		if strings.HasPrefix(l, "| "+name+" |") {
			return l
		}
	}
	t.Fatalf("no row %q in\n%s", name, sec)
	return ""
}

// TestALateLossSignalIsNotASafetyViolation: a pattern whose runs break
// loss-signal alone is green in the Safety table and its rates, and red in
// the promptness table. Before the kinds were counted apart the Safety
// cell read "**[2/2 ...](viz/...)**", red.
func TestALateLossSignalIsNotASafetyViolation(t *testing.T) {
	m := promptOnly(t)
	var b bytes.Buffer
	if err := WriteMarkdown(&b, Build(m, nil, Options{})); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if r := tableRow(t, section(t, md, "## Safety"), "fenced"); strings.Contains(r, "**") || !strings.Contains(r, "0/2") {
		t.Errorf("Safety row of fenced %q: want a clean 0/2, not red", r)
	}
	if r := tableRow(t, section(t, md, "### Violations per simulated hour"), "fenced"); strings.Contains(r, "**") {
		t.Errorf("safety rates of fenced %q: want no red cell", r)
	}
	if r := tableRow(t, section(t, md, "## Promptness"), "fenced"); !strings.Contains(r, "**") || !strings.Contains(r, "/2") {
		t.Errorf("Promptness row of fenced %q: want it red", r)
	}
}

// TestPlotsCountOneKind: the safety grid of the plot is clean where only
// loss-signal broke, and the promptness grid is not.
func TestPlotsCountOneKind(t *testing.T) {
	m := promptOnly(t)
	c := m.Cell("fenced", "node-clock-jump")
	safe, prompt := rateGrid{m: m, rows: []int{0}, kind: Safety}, rateGrid{m: m, rows: []int{0}, kind: Promptness}
	if z := safe.Z(0, 0); z != 0 {
		t.Errorf("safety grid of fenced under node-clock-jump: %v, want 0", z)
	}
	if z, want := prompt.Z(0, 0), float64(c.Kinds[Promptness].Violating)/float64(c.Seeds); z != want || z == 0 {
		t.Errorf("promptness grid: %v, want %v (not 0)", z, want)
	}
}

// TestALossSignalPageDrawsTheLateSignal: the counterexample page of a cell
// that broke loss-signal alone names the claim and its kind, marks the
// late signal as a span on a row of its own, and does not say "not
// linearizable" of a history porcupine found linearizable. Before, the
// page had no span: only the sections and the faults.
func TestALossSignalPageDrawsTheLateSignal(t *testing.T) {
	m := promptOnly(t)
	dir := t.TempDir()
	if err := Write(dir, m, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	c := m.Cell("fenced", "node-clock-jump")
	if c.Viz == "" || c.VizVerdict != "ok" {
		t.Fatalf("page %q, verdict %q: want a page of a linearizable history", c.Viz, c.VizVerdict)
	}
	page, err := os.ReadFile(filepath.Join(dir, c.Viz))
	if err != nil {
		t.Fatal(err)
	}
	p := string(page)
	if strings.Contains(p, "not linearizable") {
		t.Error("the page says \"not linearizable\" of a history porcupine found linearizable")
	}
	if !strings.Contains(p, "broke loss-signal (promptness)") {
		t.Error("the page's header does not name the claim broken and its kind")
	}
	d := pageData(t, page)
	spans := 0
	for _, a := range d["Annotations"].([]any) {
		a := a.(map[string]any)
		if a["Description"] == LateSpanKind {
			spans++
			if !strings.HasSuffix(a["Tag"].(string), " loss signal") || a["End"].(float64) <= a["Start"].(float64) {
				t.Errorf("late signal annotation %v: want a span on a row of its own", a)
			}
		}
	}
	if spans == 0 || spans != len(c.Kinds[Promptness].late) {
		t.Errorf("%d late-signal spans on the page, want one per finding (%d)", spans, len(c.Kinds[Promptness].late))
	}
}

// TestParseLostAt reads the loss time out of the oracle's wording.
func TestParseLostAt(t *testing.T) {
	for _, tc := range []struct {
		detail string
		want   int64
		ok     bool
	}{
		{"c1 lost the lock on the server at t=0.120500s and learnt of it 93ms later", 120_500_000, true},
		{"c2 lost the lock on the server at t=12.000001s and", 12_000_001_000, true},
		{"something else", 0, false},
	} {
		got, ok := parseLostAt(tc.detail)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseLostAt(%q) = %d, %v, want %d, %v", tc.detail, got, ok, tc.want, tc.ok)
		}
	}
}

// TestKindsAreCountedApart: each claim name falls in its kind, and a run's
// kinds are tallied apart in a cell.
func TestKindsAreCountedApart(t *testing.T) {
	for claim, want := range map[string]ClaimKind{"mutex": Safety, "safe-store": Safety, "fencing": Safety, "max-holders": Safety, "progress": Liveness, "loss-signal": Promptness} {
		if got := KindOf(claim); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", claim, got, want)
		}
	}
	if Makes(pattern.Claims{SafeStore: true}, Promptness) || !Makes(pattern.Claims{LossSignal: 50}, Promptness) {
		t.Error("Makes does not follow the claims")
	}
}

// TestAClaimNotMadeIsNotJudged: where a pattern makes no claim of a kind,
// that kind's tables say "not claimed" instead of a clean 0/N.
func TestAClaimNotMadeIsNotJudged(t *testing.T) {
	ps := []PatternInfo{
		{Name: "basic", Nodes: 1, Claims: pattern.Claims{Mutex: true, LossSignal: 1}},
		{Name: "mute", Nodes: 1, Claims: pattern.Claims{Mutex: true}},
	}
	m := synth(ps, []string{"gc-pause"}, 4, func(*Cell) {})
	var b bytes.Buffer
	if err := WriteMarkdown(&b, Build(m, nil, Options{})); err != nil {
		t.Fatal(err)
	}
	prompt := section(t, b.String(), "## Promptness")
	if r := tableRow(t, prompt, "mute"); !strings.Contains(r, "| not claimed |") || strings.Contains(r, "0/4") {
		t.Errorf("promptness row of a pattern that claims no loss-signal: %q, want \"not claimed\"", r)
	}
	if r := tableRow(t, prompt, "basic"); !strings.Contains(r, "0/4") {
		t.Errorf("promptness row of a pattern that claims loss-signal: %q, want its clean 0/4", r)
	}
}
