package gate

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func writeTemp(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const pauseScenario = "scenario long-pause\nstart clients=2 duration=2s\npattern ttl=200ms\npause c1 on=write for=300ms\n"

// TestParseFileReadsScenarioPaths: a line names a scenario file by a path
// relative to the expectations file, whatever the working directory; the
// cell replays by the file's absolute path.
func TestParseFileReadsScenarioPaths(t *testing.T) {
	dir := t.TempDir()
	writeTemp(t, dir, "pause.txt", pauseScenario)
	exp := writeTemp(t, dir, "ours.txt", "basic pause.txt breaks mutex  # no fencing\n")
	t.Chdir(t.TempDir())
	m, err := ParseFile(exp)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Partial || len(m.Expect) != 1 || m.Expect[0].Scenario != "long-pause" {
		t.Fatalf("ParseFile = %+v, want a partial matrix with one line under long-pause", m)
	}
	res, err := Check(context.Background(), m, Options{Seeds: 3, Parallel: 2,
		Run: fake{breaks: func(p, s string, seed uint64) bool { return s == "long-pause" }}.run})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() || len(res.Checks) != 1 || res.Checks[0].Arg != filepath.Join(dir, "pause.txt") {
		t.Fatalf("Check = %+v, want one passing check replayed by the file's absolute path", res)
	}
	if want := "--scenario " + filepath.Join(dir, "pause.txt") + " --seed 1"; !strings.Contains(res.Checks[0].Replay(), want) {
		t.Errorf("Replay() = %q, want it to contain %q", res.Checks[0].Replay(), want)
	}
}

func TestParseFileErrors(t *testing.T) {
	dir := t.TempDir()
	writeTemp(t, dir, "gc.txt", "scenario gc-pause\nstart\n")
	writeTemp(t, dir, "a.txt", "scenario same\nstart\n")
	writeTemp(t, dir, "b.txt", "scenario same\nstart\n")
	writeTemp(t, dir, "bad.txt", "start\npattern drift=2\n")
	for _, tc := range []struct{ text, want string }{
		{"basic missing.txt holds mutex", ":1: unknown scenario \"missing.txt\""},
		{"basic gc.txt holds mutex", ":1: scenario file gc.txt: scenario \"gc-pause\", a built-in's name"},
		{"basic a.txt holds mutex\nbasic b.txt holds mutex", ":2: scenario file b.txt: scenario \"same\", as " + filepath.Join(dir, "a.txt")},
		{"basic bad.txt holds mutex", ":1: scenario file: " + filepath.Join(dir, "bad.txt") + ": line 2: pattern: field drift"},
	} {
		exp := writeTemp(t, dir, "exp.txt", tc.text)
		if _, err := ParseFile(exp); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFile(%q) = %v, want an error containing %q", tc.text, err, tc.want)
		}
	}
}

// TestSelectUnlisted: a partial matrix's unlisted claims of its cells (its
// patterns × its scenarios) hold, or are skipped.
func TestSelectUnlisted(t *testing.T) {
	m, err := Parse("ours.txt", strings.NewReader("basic gc-pause breaks mutex\nfenced partition holds fencing seeds=4\n"))
	if err != nil {
		t.Fatal(err)
	}
	m.Partial = true
	full, err := m.Select(Selection{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range full.Expect {
		got = append(got, e.Pattern+" "+e.Scenario+" "+string(e.Verdict)+" "+strings.Join(e.Claims, ",")+" "+itoa(e.Seeds))
	}
	want := "basic gc-pause breaks mutex 0|fenced partition holds fencing 4|basic gc-pause holds progress,loss-signal 0|basic partition holds mutex,progress,loss-signal 0|" +
		"fenced gc-pause holds safe-store,fencing,progress,loss-signal 0|fenced partition holds safe-store,progress,loss-signal 4"
	if strings.Join(got, "|") != want {
		t.Errorf("Select() lines\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	skip, err := m.Select(Selection{Unlisted: UnlistedSkip})
	if err != nil || len(skip.Expect) != 2 {
		t.Errorf("Select(skip) = %d lines, %v; want the 2 lines", len(skip.Expect), err)
	}
	if _, err := m.Select(Selection{Unlisted: "maybe"}); err == nil {
		t.Error("Select(unlisted maybe) = nil error")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestSelectFilters: --pattern and --scenario keep their lines; the
// selection of the complete matrix is partial, so the check asks nothing
// of the rest of the registry.
func TestSelectFilters(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	sel, err := m.Select(Selection{Patterns: []string{"basic", "basic-del"}, Scenarios: []string{"gc-pause", "wrong-owner-release"}})
	if err != nil {
		t.Fatal(err)
	}
	if !sel.Partial || len(sel.Variants) != 1 || sel.Variants[0].Name != "basic-del" {
		t.Fatalf("selection: partial %v, variants %+v; want partial, basic-del only", sel.Partial, sel.Variants)
	}
	for _, e := range sel.Expect {
		if e.Pattern != "basic" && e.Pattern != "basic-del" || e.Scenario != "gc-pause" && e.Scenario != "wrong-owner-release" {
			t.Errorf("line %d (%s under %s) kept", e.Line, e.Pattern, e.Scenario)
		}
	}
	res, err := Check(context.Background(), sel, Options{Seeds: 2, Parallel: 2, Run: standard.run})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Deviations {
		if d.Line == 0 && !strings.Contains(d.What, UnlistedWhy) {
			t.Errorf("a partial check asked of the matrix as a whole: %+v", d)
		}
	}
	for _, bad := range []Selection{{Patterns: []string{"no-such"}}, {Scenarios: []string{"no-such"}}, {Patterns: []string{"fair"}, Scenarios: []string{"reenter"}}} {
		if _, err := m.Select(bad); err == nil {
			t.Errorf("Select(%+v) = nil error", bad)
		}
	}
}
