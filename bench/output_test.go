package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeSample is a sample with n cycles at rate cycles/s, each cycle taking
// lat (the acquire half of it).
func fakeSample(subject string, kind Kind, cell Cell, rep int, rate float64, lat time.Duration) Sample {
	s := Sample{Subject: subject, Kind: kind, Cell: cell, Rep: rep, Window: time.Second,
		Acquired: int64(rate), RoundTrips: 2 * int64(rate), Failed: int64(rate) / 10}
	for range int(rate) {
		s.Acquire.RecordDuration(lat / 2)
		s.Cycle.RecordDuration(lat)
	}
	return s
}

// fakeResult has the floor and basic on two client counts, basic at
// ratio of the floor's rate, plus redlock and fanout on 3 nodes.
func fakeResult(ratio float64) *Result {
	res := &Result{Target: "test", Started: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC),
		Config: Settings{Clients: []int{1, 8}, Keys: []KeyMode{Distinct, Hot}, QuorumNodes: []int{3},
			DurationMS: 1000, Reps: 2}}
	for _, c := range []int{1, 8} {
		for _, k := range []KeyMode{Distinct, Hot} {
			for rep := range 2 {
				sc := singleCell(c, k)
				qc := Cell{Family: Quorum, Nodes: 3, Clients: c, Keys: k}
				res.Samples = append(res.Samples,
					fakeSample("floor", KindFloor, sc, rep, 1000, time.Millisecond),
					fakeSample("basic", KindPattern, sc, rep, 1000*ratio, time.Millisecond),
					fakeSample("fanout", KindReference, qc, rep, 400, 3*time.Millisecond),
					fakeSample("redlock", KindPattern, qc, rep, 380, 3*time.Millisecond))
			}
		}
	}
	res.Rows = aggregate(res.Samples)
	return res
}

func TestWriteCSV(t *testing.T) {
	res := fakeResult(0.9)
	var buf bytes.Buffer
	if err := WriteCSV(&buf, res); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+len(res.Rows) {
		t.Fatalf("%d CSV records, want header + %d rows", len(recs), len(res.Rows))
	}
	if strings.Join(recs[0], ",") != strings.Join(rowColumns, ",") {
		t.Errorf("header = %v, want %v", recs[0], rowColumns)
	}
	col := func(name string) int { return indexOf(rowColumns, name) }
	for _, rec := range recs[1:] {
		if len(rec) != len(rowColumns) {
			t.Fatalf("record %v has %d fields, want %d", rec, len(rec), len(rowColumns))
		}
		if rec[col("subject")] == "basic" && rec[col("ratio_floor")] != "0.900" {
			t.Errorf("basic ratio_floor = %s, want 0.900", rec[col("ratio_floor")])
		}
		if rec[col("subject")] == "redlock" && rec[col("ratio_reference")] != "0.950" {
			t.Errorf("redlock ratio_reference = %s, want 0.950", rec[col("ratio_reference")])
		}
	}
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

func TestWriteJSONRoundTrips(t *testing.T) {
	res := fakeResult(1.1)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, res); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Target  string       `json:"target"`
		Rows    []Row        `json:"rows"`
		Samples []sampleJSON `json:"samples"`
	}
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Target != "test" || len(back.Rows) != len(res.Rows) || len(back.Samples) != len(res.Samples) {
		t.Fatalf("decoded %q with %d rows, %d samples; want test, %d, %d",
			back.Target, len(back.Rows), len(back.Samples), len(res.Rows), len(res.Samples))
	}
	for i := range back.Rows {
		if back.Rows[i] != res.Rows[i] {
			t.Errorf("row %d: decoded %+v, want %+v", i, back.Rows[i], res.Rows[i])
		}
	}
	s := back.Samples[0]
	if s.Acquired != 1000 || s.CyclesPerSec != 1000 || s.CycleP50 < 1000 || s.CycleP50 > 1010 {
		t.Errorf("sample 0 = %+v, want 1000 cycles at 1000/s, p50 ≈ 1000µs", s)
	}
}

func TestWriteReportFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := WriteReport(dir, fakeResult(0.97)); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{FileRows: "target,", FileSamples: "target,", FileJSON: "{", FileSummary: "# locksim benchmarks"}
	for _, base := range []string{"throughput-distinct", "throughput-hot", "latency-distinct", "latency-hot", "redlock-nodes", "contention"} {
		want[base+".png"] = "\x89PNG"
		want[base+".svg"] = "<?xml"
	}
	for name, prefix := range want {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.HasPrefix(b, []byte(prefix)) {
			t.Errorf("%s starts %q, want %q", name, b[:min(len(b), 16)], prefix)
		}
	}
}

func TestSummaryMentionsDemoAndTables(t *testing.T) {
	res := fakeResult(1)
	res.Demo = true
	var buf bytes.Buffer
	if err := WriteSummary(&buf, res); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"Demo path", "## Goals", "## Single node, a key per client", "## Redlock over 3 node(s), one hot key",
		"| basic | 1,000 (1.00) | 1,000 (1.00) |"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

// TestReadJSONRedrawsThePlots: results.json reads back with its rows and
// settings, and the plots drawn from it are the plots drawn from the run
// itself, byte for byte; a file of another format or with no rows is
// refused.
func TestReadJSONRedrawsThePlots(t *testing.T) {
	res := fakeResult(0.9)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, res); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if back.Target != res.Target || !back.Started.Equal(res.Started) || len(back.Rows) != len(res.Rows) || len(back.Config.Keys) != 2 {
		t.Fatalf("read %+v, want the run's target, start, rows and settings", back)
	}
	a, b := t.TempDir(), t.TempDir()
	if err := WritePlots(a, res); err != nil {
		t.Fatal(err)
	}
	if err := WritePlots(b, back); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"throughput-distinct.svg", "throughput-hot.png", "latency-hot.svg", "redlock-nodes.png", "contention.svg"} {
		x, err1 := os.ReadFile(filepath.Join(a, name))
		y, err2 := os.ReadFile(filepath.Join(b, name))
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			t.Errorf("%s: redrawn from results.json differs from the run's (%v, %v)", name, err1, err2)
		}
	}
	for _, bad := range []string{`{"format":"other","rows":[{}]}`, `{"format":"` + FormatJSON + `"}`, `not json`} {
		if _, err := ReadJSON(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadJSON(%s) = nil error, want refused", bad)
		}
	}
}
