package linearizability

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/locksim/locksim/history"
)

var update = flag.Bool("update", false, "rewrite the golden reports in testdata/")

func load(t *testing.T, name string) *history.History {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := history.Decode(f)
	if err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
	return h
}

// TestTestdata checks the hand-written histories in testdata and compares
// each report with its golden file (go test -update rewrites them).
func TestTestdata(t *testing.T) {
	for _, c := range []struct {
		file   string
		models Models
		want   Verdict
	}{
		{"illegal-basic-gc-pause.json", DefaultModels, Illegal},
		{"ok-fenced-gc-pause.json", DefaultModels, Ok},
		{"ok-lost-reply.json", AllModels, Ok},
		{"illegal-lock-double-grant.json", AllModels, Illegal},
		{"illegal-lock-double-grant.json", DefaultModels, Ok}, // nothing to check without the lock model
	} {
		t.Run(c.file, func(t *testing.T) {
			h := load(t, c.file)
			rep, err := Check(h, Options{Models: c.models})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != c.want {
				t.Fatalf("Check(%s, models %b) = %s, want %s\n%s", c.file, c.models, rep.Verdict, c.want, rep)
			}
			if c.models == AllModels || c.want == Illegal {
				golden(t, strings.TrimSuffix(c.file, ".json")+".report", rep.String())
			}
		})
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", name, d)
	}
}

func TestCounterexample(t *testing.T) {
	h := load(t, "illegal-basic-gc-pause.json")
	rep, err := CheckHistory(h, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Counterexample
	if c == nil {
		t.Fatalf("no counterexample for an illegal history:\n%s", rep)
	}
	if c.Model != "counter" || c.Key != "res" || c.Ops != 3 {
		t.Errorf("counterexample on %s %q with %d ops, want counter \"res\" with 3", c.Model, c.Key, c.Ops)
	}
	// Both writers of 1 are in conflict; whichever porcupine linearized
	// first, the other one (or c3's read of 1 after both) cannot follow.
	var next []int
	for _, s := range append(c.Tail, c.Next...) {
		next = append(next, s.Op)
	}
	for _, op := range []int{1, 3} {
		if !contains(next, op) {
			t.Errorf("counterexample ops %v do not include ops[%d], one of the overlapping sections", next, op)
		}
	}
	if c.Linearized >= c.Ops {
		t.Errorf("Linearized = %d of %d, want a strict prefix", c.Linearized, c.Ops)
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestCheckModels(t *testing.T) {
	h := load(t, "ok-fenced-gc-pause.json")
	def, err := Check(h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := Check(h, Options{Models: AllModels})
	if err != nil {
		t.Fatal(err)
	}
	if def.Verdict != Ok || def.Skipped != 6 || def.Ops != 9 {
		t.Errorf("default models: %s, %d ops, %d skipped; want ok, 9 ops, 6 skipped (the lock calls)", def.Verdict, def.Ops, def.Skipped)
	}
	// c1's lease expired during its pause and c2 was granted the lock: the
	// lock model, which assumes no lease expires, rightly rejects that.
	if all.Verdict != Illegal || all.Counterexample.Model != "lock" {
		t.Errorf("all models: %s (counterexample %+v), want illegal in the lock model", all.Verdict, all.Counterexample)
	}
	parts := []string{}
	for _, p := range all.Parts {
		parts = append(parts, p.Model+":"+string(p.Verdict))
	}
	if d := cmp.Diff([]string{"counter:ok", "lock:illegal", "register:ok"}, parts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
}

func TestCheckUnknownOutcomes(t *testing.T) {
	h := load(t, "ok-lost-reply.json")
	rep, err := Check(h, Options{Models: AllModels})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unknown != 2 {
		t.Errorf("Unknown = %d, want 2 (c1's section, c3's acquire)", rep.Unknown)
	}
	// Had c1's section been known to fail (no write), c2's read of 1 is
	// unexplained.
	h.Ops[1].Return, h.Ops[1].OK = 29000000, false
	rep, err = Check(h, Options{Models: AllModels})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Illegal {
		t.Errorf("with c1's section known not to write: %s, want illegal", rep.Verdict)
	}
}

func TestCheckTimeoutIsUnknown(t *testing.T) {
	// 60 concurrent writes of distinct values, then a read of a value none
	// of them wrote: refuting it means trying every order of the writes.
	h := &history.History{}
	for i := range 60 {
		h.Ops = append(h.Ops, history.Op{Client: i, Kind: history.Write, Key: "db", Call: 0, Return: 100, OK: true, Value: int64(i + 1)})
	}
	h.Ops = append(h.Ops, history.Op{Client: 60, Kind: history.Read, Key: "db", Call: 200, Return: 300, OK: true, Value: 1000})
	for _, timeout := range []time.Duration{time.Nanosecond, 50 * time.Millisecond} {
		rep, err := CheckHistory(h, timeout)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != Unknown || rep.Parts[0].Verdict != Unknown {
			t.Errorf("CheckHistory(timeout %v) = %s, want unknown", timeout, rep.Verdict)
		}
		if !strings.Contains(rep.String(), "not a pass") {
			t.Errorf("report of a timed-out check does not say it is not a pass:\n%s", rep)
		}
	}
}

func TestCheckRejectsMalformed(t *testing.T) {
	for _, c := range []struct {
		name string
		op   history.Op
		want string
	}{
		{"unknown kind", history.Op{Kind: "grab"}, `ops[0]: unknown kind "grab"`},
		{"return before call", history.Op{Kind: history.Read, Call: 5, Return: 4}, "return 4 before call 5"},
		{"negative client", history.Op{Kind: history.Read, Client: -1, OK: true}, "client -1 must not be negative"},
		{"granted without owner", history.Op{Kind: history.Acquire, OK: true}, "token is empty"},
		{"release without owner", history.Op{Kind: history.Release}, "token is empty"},
		{"negative count", history.Op{Kind: history.Acquire, Token: "a", OK: true, Count: -1}, "count -1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Check(&history.History{Ops: []history.Op{c.op}}, Options{Models: AllModels})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Check = %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestReportJSON(t *testing.T) {
	rep, err := CheckHistory(load(t, "illegal-basic-gc-pause.json"), 0)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(rep); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Verdict != Illegal || back.Counterexample == nil || len(back.Counterexample.Next) == 0 {
		t.Errorf("report after a JSON round trip = %+v", back)
	}
}

func TestEmptyHistory(t *testing.T) {
	rep, err := CheckHistory(&history.History{}, time.Second)
	if err != nil || rep.Verdict != Ok || len(rep.Parts) != 0 {
		t.Errorf("CheckHistory(empty) = %+v, %v; want ok with no parts", rep, err)
	}
}
