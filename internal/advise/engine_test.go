package advise

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// allScenarios is every scenario a rule names, with its WAIT twins.
func allScenarios() []string {
	var out []string
	for _, s := range All([]int{5}, []int{2}) {
		scs, _ := scenarios(s)
		for _, sc := range scs {
			for _, n := range []string{sc.name, sc.wait} {
				if n != "" && !slices.Contains(out, n) {
					out = append(out, n)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

var synthPatterns = []Pattern{
	{Name: "basic", Nodes: 1},
	{Name: "basic-del", Nodes: 1, Broken: true},
	{Name: "service", Nodes: 1, Renews: true},
	{Name: "fenced", Nodes: 1, Tokens: true},
	{Name: "watchdog-fenced", Nodes: 1, Tokens: true, Renews: true},
	{Name: "redlock", Nodes: 5},
	{Name: "redlock-watchdog", Nodes: 5, Renews: true},
	{Name: "rwlock", Nodes: 1, Shared: true, Reads: 1},
	{Name: "rwlock-read-mostly", Nodes: 1, Shared: true, Reads: 9},
	{Name: "rwlock-write", Nodes: 1, PartOf: "rwlock"},
	{Name: "semaphore", Nodes: 1, MaxHolders: 2},
	{Name: "fair", Nodes: 1, FIFO: true},
}

// synth is evidence of every synthetic pattern under every scenario, 20
// seeds each, clean unless edit says otherwise.
func synth(edit func(c *Cell)) *Evidence {
	e := &Evidence{Format: FormatEvidence, Commit: "abc123", Seeds: 20, ProductionSeeds: 20, Patterns: synthPatterns}
	for _, p := range synthPatterns {
		for _, s := range allScenarios() {
			c := Cell{Pattern: p.Name, Scenario: s, Seeds: 20}
			if edit != nil {
				edit(&c)
			}
			e.Cells = append(e.Cells, c)
		}
	}
	return e
}

func fails(k *Count, runs int) { k.Runs, k.First = runs, 3 }

func answer(t *testing.T, e *Evidence, flags string) Answer {
	t.Helper()
	var s Situation
	f := strings.Fields(flags)
	for i := 0; i+1 < len(f); i += 2 {
		if err := s.Set(strings.TrimPrefix(f[i], "--"), f[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	a, err := Advise(s, e)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestEveryCombinationIsAnswered: every situation of the model gets an
// answer (patterns to use, or none safe with the least bad or why none
// serves), and the same answer in the same bytes twice.
func TestEveryCombinationIsAnswered(t *testing.T) {
	e := synth(func(c *Cell) {
		if c.Scenario == "gc-pause" && !strings.Contains(c.Pattern, "fenced") {
			fails(&c.Overlap, 12)
		}
	})
	all := All([]int{3, 5}, []int{2, 3})
	if len(all) != 3*5*3*2*2*5 {
		t.Fatalf("All: %d situations, want %d", len(all), 3*5*3*2*2*5)
	}
	for _, s := range all {
		a, err := Advise(s, e)
		if err != nil {
			t.Fatalf("%s: %v", s.Flags(), err)
		}
		switch {
		case a.NoneSafe && len(a.Use) > 0:
			t.Errorf("%s: none safe, yet use %q", s.Flags(), a.Use)
		case !a.NoneSafe && len(a.Use) == 0:
			t.Errorf("%s: no pattern to use and not none-safe", s.Flags())
		case a.NoneSafe && a.LeastBad == "" && len(a.NotJudged) == 0:
			t.Errorf("%s: none safe with neither a least bad nor a reason", s.Flags())
		case len(a.Residual) == 0 && a.LeastBad+strings.Join(a.Use, "") != "":
			t.Errorf("%s: no residual risk for %q", s.Flags(), a.Use)
		}
		var b1, b2 bytes.Buffer
		b, _ := Advise(s, e)
		if err := json.NewEncoder(&b1).Encode(a); err != nil {
			t.Fatal(err)
		}
		_ = json.NewEncoder(&b2).Encode(b)
		if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			t.Fatalf("%s: two answers differ", s.Flags())
		}
	}
}

// TestTheFourSituations: the four everyday situations.
func TestTheFourSituations(t *testing.T) {
	e := synth(func(c *Cell) {
		if c.Scenario == "gc-pause" && (c.Pattern == "fenced" || c.Pattern == "watchdog-fenced") {
			fails(&c.Overlap, 15) // fencing absorbs the overlap: no lost update
		}
		if c.Scenario == "gc-pause" && !strings.Contains(c.Pattern, "fenced") {
			fails(&c.Overlap, 15)
			fails(&c.Lost, 12)
		}
	})
	e.HotKey = []Throughput{{Pattern: "basic", Clients: 64, CyclesPerSec: 1000, Lo: 900, Hi: 1100}, {Pattern: "service", Clients: 64, CyclesPerSec: 8000, Lo: 7000, Hi: 9000}}
	for i := range e.Cells {
		if c := &e.Cells[i]; c.Pattern == "basic" {
			c.Acquisitions, c.DoubleRuns = 400, 3
			if c.Scenario == "gc-pause" {
				c.DoubleRuns = 31
			}
		}
	}
	cache := answer(t, e, "--double-run harmless --topology single --pauses above-ttl --work bounded --clocks stable --access exclusive")
	if !slices.ContainsFunc(cache.NotProtected, func(s string) bool { return strings.Contains(s, "31 double runs in 400 acquisitions under gc-pause") }) {
		t.Errorf("cache-stampede guard: not protected %q; want the double runs counted as executions, 31 in 400 under gc-pause", cache.NotProtected)
	}
	if len(cache.Use) < 2 || cache.Use[0] != "basic" || cache.Use[len(cache.Use)-1] != "service" || !strings.Contains(cache.Settings["service"].For, "hot key") {
		t.Errorf("cache-stampede guard: use %q, settings %+v; want basic first, service for a hot key", cache.Use, cache.Settings)
	}
	pay := answer(t, e, "--double-run store-checks-tokens --topology single-fsync-always --pauses above-ttl --work bounded --clocks stable --access exclusive")
	if len(pay.Use) == 0 || pay.Use[0] != "fenced" || !pay.Settings["fenced"].StoreTokenCheck || pay.Settings["fenced"].Appendfsync != "always" {
		t.Errorf("payment job: use %q settings %+v; want fenced, the store checking tokens, appendfsync always", pay.Use, pay.Settings)
	}
	if !slices.ContainsFunc(pay.NotProtected, func(s string) bool { return strings.Contains(s, "run twice") && strings.Contains(s, "15/20") }) {
		t.Errorf("payment job: not protected %q; want that the job may still run twice, 15/20 under gc-pause", pay.NotProtected)
	}
	five := answer(t, e, "--double-run harmful --topology independent:5 --pauses none --work bounded --clocks stable --access exclusive")
	for _, u := range append(append([]string{}, five.Use...), five.RunnerUp.Pattern) {
		if !strings.HasPrefix(u, "redlock") {
			t.Errorf("five independent nodes: %q among use/runner-up %q, %q; want only the redlock family", u, five.Use, five.RunnerUp.Pattern)
		}
	}
	if five.Settings["redlock"].Quorum != 3 {
		t.Errorf("five nodes: settings %+v, want quorum 3", five.Settings)
	}
	read := answer(t, e, "--double-run harmful --topology single-fsync-always --pauses none --work bounded --clocks stable --access read-mostly")
	if !slices.Equal(read.Use, []string{"rwlock-read-mostly"}) || read.RunnerUp == nil || read.RunnerUp.Pattern != "rwlock" ||
		!slices.ContainsFunc(read.NotJudged, func(s string) bool { return strings.Contains(s, "measured with 9 reads per write") }) {
		t.Errorf("read-heavy config reload: use %q runner-up %+v, not judged %q; want the read-write lock measured read-mostly, then at 1:1, and the ratio said", read.Use, read.RunnerUp, read.NotJudged)
	}
	e.Patterns = slices.DeleteFunc(slices.Clone(e.Patterns), func(p Pattern) bool { return p.Name == "rwlock-read-mostly" })
	if read := answer(t, e, "--double-run harmful --topology single-fsync-always --pauses none --work bounded --clocks stable --access read-mostly"); !slices.Equal(read.Use, []string{"rwlock"}) ||
		!slices.ContainsFunc(read.NotJudged, func(s string) bool { return strings.Contains(s, "alternating reads and writes 1:1") }) {
		t.Errorf("read-mostly without its measurement: use %q, not judged %q; want rwlock and the 1:1 ratio said", read.Use, read.NotJudged)
	}
}

// TestJudgedPerScenarioNotPooled: a rate clean under one scenario and
// dirty under another is its dirty scenario's, not diluted by the clean
// one; a candidate is ranked by its worst scenario.
func TestJudgedPerScenarioNotPooled(t *testing.T) {
	e := synth(func(c *Cell) {
		switch {
		case c.Pattern == "basic" && c.Scenario == "client-clock-drift":
			fails(&c.Overlap, 7) // pooled with client-clock-jump's 0/20: 7/40
		case c.Pattern == "service" && (c.Scenario == "client-clock-drift" || c.Scenario == "node-clock-jump"):
			fails(&c.Overlap, 4) // pooled 8/60 over the clock scenarios; worst 4/20
		case c.Pattern != "basic" && c.Pattern != "service" && c.Scenario == "client-clock-jump":
			fails(&c.Overlap, 10)
		case c.Pattern == "service" && c.Scenario == "client-clock-jump":
			c.Unfired = 5
		}
	})
	a := answer(t, e, "--double-run harmful --topology single-fsync-always --pauses none --work bounded --clocks may-jump --access exclusive")
	if !a.NoneSafe || a.LeastBad != "service" {
		t.Fatalf("use %q least bad %q; want none safe, service least bad (worst 4/20 against basic's 7/20, though pooled 8 > 7)", a.Use, a.LeastBad)
	}
	if !slices.ContainsFunc(a.NotJudged, func(s string) bool {
		return strings.Contains(s, "service under client-clock-jump: a fault did not fire in 5 of 20 seeds")
	}) {
		t.Errorf("not judged %q; want service's unfired seeds under client-clock-jump said", a.NotJudged)
	}
	if a.RunnerUp == nil || a.RunnerUp.Pattern != "basic" || !strings.Contains(a.RunnerUp.Why, "7/20 (35%, 18–57%)") || !strings.Contains(a.RunnerUp.Why, "client-clock-drift") {
		t.Errorf("runner-up %+v; want basic, 7/20 under client-clock-drift", a.RunnerUp)
	}
	if r := a.Residual[0]; r.Scenario != "client-clock-drift" && r.Scenario != "node-clock-jump" || r.Runs != 4 || r.Seeds != 20 || r.Replay == "" {
		t.Errorf("residual %+v; want 4/20 under one scenario, with a replay", r)
	}
}

// TestOneKindCounted: the finding that counts is the situation's alone —
// a stall never makes a harmful double-run answer unsafe, an overlap
// never a harmless one's.
func TestOneKindCounted(t *testing.T) {
	e := synth(func(c *Cell) {
		fails(&c.Stall, 0)
		if c.Pattern == "basic" {
			fails(&c.Stall, 20)
		} else {
			fails(&c.Overlap, 20)
		}
	})
	harmful := answer(t, e, "--double-run harmful --topology single-fsync-always --pauses none --work bounded --clocks stable --access exclusive")
	if !slices.Equal(harmful.Use, []string{"basic"}) {
		t.Errorf("harmful: use %q; want basic, whose only finding is a stall", harmful.Use)
	}
	harmless := answer(t, e, "--double-run harmless --topology single-fsync-always --pauses none --work bounded --clocks stable --access exclusive")
	if slices.Contains(harmless.Use, "basic") || harmless.NoneSafe {
		t.Errorf("harmless: use %q none-safe %v; want the patterns that never stalled, not basic", harmless.Use, harmless.NoneSafe)
	}
}

// TestNoneSafeNamesTheMitigation: when every candidate fails, the answer
// says so, names the least bad, and the changes under which one is safe.
func TestNoneSafeNamesTheMitigation(t *testing.T) {
	e := synth(func(c *Cell) {
		if c.Scenario == "node-restart-without-persistence" || c.Scenario == "fsync-everysec" {
			fails(&c.Overlap, 10)
			if !strings.Contains(c.Pattern, "fenced") {
				fails(&c.Lost, 10)
			}
		}
	})
	a := answer(t, e, "--double-run harmful --topology single --pauses none --work bounded --clocks stable --access exclusive")
	if !a.NoneSafe || len(a.Use) != 0 || a.LeastBad == "" {
		t.Fatalf("use %q none-safe %v least-bad %q; want none safe, a least bad", a.Use, a.NoneSafe, a.LeastBad)
	}
	var changes []string
	for _, m := range a.Mitigations {
		changes = append(changes, m.Flags)
	}
	if len(a.Mitigations) != 2 || !strings.Contains(changes[0], "store-checks-tokens") || !strings.Contains(changes[1], "single-fsync-always") {
		t.Errorf("mitigations %q; want a store that checks tokens, then appendfsync always", changes)
	}
}

// TestWaitReplicasIsASetting: under replicas a pattern is judged with and
// without WAIT, and the answer's settings say which.
func TestWaitReplicasIsASetting(t *testing.T) {
	e := synth(func(c *Cell) {
		if (strings.HasPrefix(c.Scenario, "failover-mid-grant") || c.Scenario == "failover-twice") && !strings.HasSuffix(c.Scenario, "-wait") {
			fails(&c.Overlap, 9)
		}
		if strings.HasSuffix(c.Scenario, "-wait") && c.Pattern == "basic" {
			c.Refused, c.Seeds = "locks: WaitReplicas is not supported by Basic", 0
		}
	})
	a := answer(t, e, "--double-run harmful --topology replicas --pauses none --work bounded --clocks stable --access exclusive")
	if !slices.Contains(a.Use, "service") || slices.Contains(a.Use, "basic") {
		t.Errorf("use %q; want service, not basic (it refuses WAIT and fails without)", a.Use)
	}
	for name, st := range a.Settings {
		if st.WaitReplicas != 1 {
			t.Errorf("%s: settings %+v, want wait_replicas 1", name, st)
		}
	}
	// Every failover has its WAIT twin: service with WAIT is judged under
	// each twin, none left unjudged.
	for _, twin := range []string{"failover-async-replication-wait", "failover-twice-wait", "failover-lag-exp-wait", "failover-mid-grant-wait"} {
		if !slices.ContainsFunc(a.Evidence, func(j Judged) bool { return j.Pattern == "service" && j.Scenario == twin && j.Wait && j.Measured }) {
			t.Errorf("evidence: service with WAIT not judged under %s", twin)
		}
	}
	if slices.ContainsFunc(a.NotJudged, func(s string) bool { return strings.Contains(s, "WAIT") }) {
		t.Errorf("not judged %q: every failover has a WAIT twin", a.NotJudged)
	}
	for _, j := range a.Evidence {
		if j.Pattern == "service" && j.Scenario == "failover-twice" {
			t.Errorf("evidence %+v: a failover measured without WAIT judges service with WAIT", j)
		}
	}
}

func TestSituationRefusesBadValues(t *testing.T) {
	for _, c := range []struct{ flag, value, want string }{
		{"topology", "independent:4", "odd"},
		{"topology", "independent:x", "whole number"},
		{"access", "slots:1", "at least 2"},
		{"double-run", "maybe", "want one of harmless"},
		{"topology", "independent:N", "whole number"},
		{"pauses", "independent:N", "want one of"},
	} {
		var s Situation
		if err := s.Set(c.flag, c.value); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Set(%q, %q) = %v, want an error with %q", c.flag, c.value, err, c.want)
		}
	}
	if _, err := Advise(Situation{DoubleRun: DoubleHarmless}, synth(nil)); err == nil || !strings.Contains(err.Error(), "--topology") {
		t.Errorf("Advise(incomplete) = %v, want the first missing flag named", err)
	}
}

func TestReadEvidenceRefuses(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"format": "other/1", "patterns": [{"name": "basic"}]}`, "format"},
		{`{"format": "locksim-evidence/1", "patterns": []}`, "no patterns"},
		{`{"format": "locksim-evidence/1", "patterns": [{"name": "basic"}], "cells": [{"pattern": "x", "scenario": "s"}]}`, "no such pattern"},
		{`{"format": "locksim-evidence/1", "patterns": [{"name": "basic"}], "cells": [{"pattern": "basic", "scenario": "s", "seeds": 2, "overlap": {"runs": 3}}]}`, "3 runs of 2"},
		{`{"format": "locksim-evidence/1", "bogus": 1}`, "unknown field"},
		{`{"format": "locksim-evidence/1", "patterns": [{"name": "basic"}], "real_source": "x", "real": [{"pattern": "x", "scenario": "s", "runs": 5}]}`, "real cell x under s: no such pattern"},
		{`{"format": "locksim-evidence/1", "patterns": [{"name": "basic"}], "real_source": "x", "real": [{"pattern": "basic", "scenario": "s", "runs": 0}]}`, "0 runs"},
		{`{"format": "locksim-evidence/1", "patterns": [{"name": "basic"}], "real": [{"pattern": "basic", "scenario": "s", "runs": 5}]}`, "without real_source"},
	} {
		if _, err := ReadEvidence(strings.NewReader(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadEvidence(%s) = %v, want an error with %q", c.text, err, c.want)
		}
	}
	var b bytes.Buffer
	e := synth(nil)
	e.RealSource, e.Real = "locksim real", []RealCell{{Pattern: "fenced", Scenario: "gc-pause", Runs: 5, Agree: true, Commit: "abc123"}}
	if err := e.Write(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if strings.Count(text, `"cells"`) != 1 || strings.Count(text, `"patterns"`) != 1 || strings.Count(text, "\n") != len(e.Patterns)+len(e.Cells)+len(e.Real)+7 {
		t.Errorf("Write: want each key once and one pattern or cell a line:\n%.600s", text)
	}
	back, err := ReadEvidence(&b)
	if err != nil {
		t.Fatalf("evidence written by Write does not read back: %v", err)
	}
	if len(back.Cells) != len(e.Cells) || back.Cells[7] != e.Cells[7] || back.Patterns[3].Name != e.Patterns[3].Name || len(back.Real) != 1 || back.Real[0].Scenario != "gc-pause" {
		t.Errorf("evidence read back differs: %d cells, want %d", len(back.Cells), len(e.Cells))
	}
}

// TestRatesAsTheReportWritesThem pins the interval against the report's
// own figures (internal/report's decide tests).
func TestRatesAsTheReportWritesThem(t *testing.T) {
	for _, c := range []struct {
		k, n int
		want string
	}{{0, 40, "0/40 (0%, 0–8.8%)"}, {30, 40, "30/40 (75%, 60–86%)"}, {7, 20, "7/20 (35%, 18–57%)"}} {
		if got := rateText(c.k, c.n); got != c.want {
			t.Errorf("rateText(%d, %d) = %q, want %q", c.k, c.n, got, c.want)
		}
	}
}

// TestReplayNamesTheEvidenceBinary: a residual's replay starts with the
// command that made the evidence (a user's binary built with cli.Main
// replays their patterns; locksim would not know them), and with locksim
// when the evidence does not say.
func TestReplayNamesTheEvidenceBinary(t *testing.T) {
	for _, tc := range []struct{ command, want string }{
		{"mylock-locksim report --seeds 20 --patterns mine,fenced", "mylock-locksim run --pattern "},
		{"", "locksim run --pattern "},
	} {
		e := synth(func(c *Cell) {
			if c.Scenario == "client-clock-drift" {
				fails(&c.Overlap, 4)
			}
		})
		e.Command = tc.command
		a := answer(t, e, "--double-run harmful --topology single-fsync-always --pauses none --work bounded --clocks may-jump --access exclusive")
		if len(a.Residual) == 0 {
			t.Fatalf("command %q: no residual risk; want one under client-clock-drift", tc.command)
		}
		if r := a.Residual[0].Replay; !strings.HasPrefix(r, tc.want) {
			t.Errorf("command %q: replay %q; want it to start %q", tc.command, r, tc.want)
		}
	}
}

// TestReentryIsAMechanism: basic and reentrant are equally clean; the
// hold count that re-entry needs is a mechanism no situation of the model
// asks for, so basic is used and reentrant, its runner-up, loses for it.
// Without Pattern.Reentrant both were used: the evidence told them apart
// by nothing.
func TestReentryIsAMechanism(t *testing.T) {
	flags := "--double-run harmful --topology single --pauses none --work bounded --clocks stable --access exclusive"
	for _, reentrant := range []bool{true, false} {
		e := &Evidence{Format: FormatEvidence, Commit: "abc123", Seeds: 20, ProductionSeeds: 20,
			Patterns: []Pattern{{Name: "basic", Nodes: 1}, {Name: "reentrant", Nodes: 1, Reentrant: reentrant}}}
		for _, p := range e.Patterns {
			for _, s := range allScenarios() {
				e.Cells = append(e.Cells, Cell{Pattern: p.Name, Scenario: s, Seeds: 20})
			}
		}
		a := answer(t, e, flags)
		if !reentrant {
			if !slices.Equal(a.Use, []string{"basic", "reentrant"}) {
				t.Errorf("without the mark: use %q, want both (nothing tells them apart)", a.Use)
			}
			continue
		}
		if !slices.Equal(a.Use, []string{"basic"}) {
			t.Fatalf("use %q, want [basic]: reentrant adds a hold count", a.Use)
		}
		if a.RunnerUp == nil || a.RunnerUp.Pattern != "reentrant" || !strings.Contains(a.RunnerUp.Why, "a hold count for re-entry") {
			t.Errorf("runner-up %+v, want reentrant, losing for its hold count", a.RunnerUp)
		}
	}
}

// TestPausesBelowTheTTLAreJudged: a situation whose pauses stay below the
// TTL is judged under gc-storm-below-ttl (before, it said "not judged"),
// and a pattern that breaks there is not used.
func TestPausesBelowTheTTLAreJudged(t *testing.T) {
	e := synth(func(c *Cell) {
		if c.Scenario == "gc-storm-below-ttl" && c.Pattern == "basic" {
			fails(&c.Overlap, 6)
		}
	})
	a := answer(t, e, "--double-run harmful --topology single --pauses below-ttl --work bounded --clocks stable --access exclusive")
	if !slices.ContainsFunc(a.Evidence, func(j Judged) bool { return j.Scenario == "gc-storm-below-ttl" && j.Measured }) {
		t.Errorf("evidence: gc-storm-below-ttl not judged")
	}
	if slices.ContainsFunc(a.NotJudged, func(s string) bool { return strings.Contains(s, "below the TTL") }) {
		t.Errorf("not judged %q: pauses below the TTL are measured", a.NotJudged)
	}
	if slices.Contains(a.Use, "basic") || len(a.Use) == 0 {
		t.Errorf("use %q: want a pattern, not basic (it breaks under pauses below the TTL)", a.Use)
	}
}
