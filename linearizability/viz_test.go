package linearizability

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/history"
)

func TestWriteVizAnnotations(t *testing.T) {
	h := load(t, "illegal-basic-gc-pause.json")
	rep, err := CheckHistory(h, 0)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "viz.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteViz(f, h, rep); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"<html",
		`"Description":"pause"`, // the pause on c1's row
		"stop-the-world GC for 198ms (TTL 100ms)", // its detail
		`"Tag":"n1"`,                                // the node event's own row
		`"Tag":"checker"`,                           // the counterexample marker
		"not linearizable: counter",                 // its description
		"section: read 0, wrote 1",                  // the operations
		"ops[3] section by client 2 on \\\"res\\\"", // an operation's tooltip
		`"BackgroundColor":"#ffd27f"`,               // pauses are orange
	} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("visualisation lacks %s", want)
		}
	}
}

func TestAnnotations(t *testing.T) {
	h := &history.History{Events: []history.Event{
		{At: 10, End: 20, Kind: "pause", Target: "c2", Detail: "GC"},
		{At: 30, Kind: "clock-jump", Target: "n1", Detail: "+2s"},
		{At: 40, End: 50, Kind: "partition", Target: "n1|n2"},
		{At: 60, Kind: "note"},
		{At: 70, Kind: "crash", Target: "cache"},
	}}
	got := Annotations(h)
	if len(got) != 5 {
		t.Fatalf("Annotations = %d, want 5", len(got))
	}
	if got[0].ClientId != 2 || got[0].Tag != "" || got[0].End != 20 {
		t.Errorf("pause c2 → %+v, want client 2's row from 10 to 20", got[0])
	}
	if got[1].Tag != "n1" || got[1].End != 30 || got[1].Details != "clock-jump n1 at 0.000000s: +2s" {
		t.Errorf("clock jump n1 → %+v", got[1])
	}
	if got[2].Tag != "n1|n2" || got[3].Tag != "run" || got[4].Tag != "cache" {
		t.Errorf("tags = %q %q %q, want n1|n2, run, cache", got[2].Tag, got[3].Tag, got[4].Tag)
	}
	colours := map[string]bool{}
	for _, a := range got[:3] {
		colours[a.BackgroundColor] = true
	}
	if len(colours) != 3 {
		t.Errorf("pause, clock jump and partition share colours: %v", colours)
	}
}

func TestWriteVizAllOk(t *testing.T) {
	h := load(t, "ok-lost-reply.json")
	rep, err := Check(h, Options{Models: AllModels})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteViz(&buf, h, rep); err != nil {
		t.Fatal(err)
	}
	// Both partitions are shown, with the crash of c3 on its row.
	for _, want := range []string{"outcome unknown (+1 or nothing)", "acquire(c3-1) → ?", "c3 crashes before the acquire reply"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("visualisation lacks %q", want)
		}
	}
	if strings.Contains(buf.String(), `"Tag":"checker"`) {
		t.Errorf("a linearizable history is marked by the checker")
	}
}

func TestWriteVizNeedsItsReport(t *testing.T) {
	h := load(t, "ok-lost-reply.json")
	if err := WriteViz(&bytes.Buffer{}, h, Report{Ops: 3}); err == nil {
		t.Errorf("WriteViz with a report not made by Check succeeded")
	}
}
