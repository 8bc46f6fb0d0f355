package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/bench"
)

// fakeBench is a benchmark result as `locksim bench` would write it.
func fakeBench() *bench.Result {
	row := func(subject string, kind bench.Kind, clients int, keys bench.KeyMode, rate float64) bench.Row {
		return bench.Row{Family: bench.Single, Subject: subject, Kind: kind, Nodes: 1, Clients: clients, Keys: keys, Reps: 3,
			CyclesPerSec: rate, RatioFloor: rate / 10000, AcquireP99: 150, CycleP50: 70, CycleP99: 290, CycleP999: 4200, Reference: "floor", RatioReference: rate / 10000,
			CyclesPerSecMin: rate * 0.9, CyclesPerSecMax: rate * 1.1}
	}
	res := &bench.Result{Target: "redis-server", Started: time.Date(2026, 11, 30, 5, 29, 12, 0, time.UTC),
		Config: bench.Settings{Clients: []int{1, 8}, Keys: []bench.KeyMode{bench.Distinct, bench.Hot}}}
	for _, k := range []bench.KeyMode{bench.Distinct, bench.Hot} {
		for _, c := range []int{1, 8} {
			res.Rows = append(res.Rows, row("floor", bench.KindFloor, c, k, 10000), row("basic", bench.KindPattern, c, k, 9500),
				row("fenced", bench.KindPattern, c, k, 9000), row("fair", bench.KindPattern, c, k, 4000))
		}
	}
	q := row("redlock", bench.KindPattern, 1, bench.Distinct, 2000)
	q.Family, q.Nodes, q.Reference = bench.Quorum, 5, "fanout"
	res.Rows = append(res.Rows, q)
	return res
}

func writeBench(t *testing.T, dir string, write func(*os.File, *bench.Result) error, name string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := write(f, fakeBench()); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestLoadBench(t *testing.T) {
	t.Run("absent", func(t *testing.T) {
		b, err := LoadBench(filepath.Join(t.TempDir(), "none"))
		if b != nil || err != nil {
			t.Errorf("LoadBench(missing dir) = %v, %v; want nil, nil", b, err)
		}
	})
	t.Run("json", func(t *testing.T) {
		dir := t.TempDir()
		writeBench(t, dir, func(f *os.File, r *bench.Result) error { return bench.WriteJSON(f, r) }, bench.FileJSON)
		for _, p := range []string{"throughput-hot.png", "contention.png"} {
			if err := os.WriteFile(filepath.Join(dir, p), []byte("png"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		b, err := LoadBench(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Rows) != 17 || b.Started.IsZero() || b.Target != "redis-server" || strings.Join(b.Plots, ",") != "contention.png,throughput-hot.png" {
			t.Errorf("LoadBench = %d rows, started %v, target %q, plots %v", len(b.Rows), b.Started, b.Target, b.Plots)
		}
	})
	t.Run("csv", func(t *testing.T) {
		dir := t.TempDir()
		writeBench(t, dir, func(f *os.File, r *bench.Result) error { return bench.WriteCSV(f, r) }, bench.FileRows)
		b, err := LoadBench(dir)
		if err != nil {
			t.Fatal(err)
		}
		want := fakeBench().Rows
		if len(b.Rows) != len(want) || b.Rows[2].Subject != want[2].Subject || b.Rows[2].CyclesPerSec != want[2].CyclesPerSec || !b.Started.IsZero() {
			t.Errorf("LoadBench(csv) = %+v, want the rows %+v and no date", b.Rows, want)
		}
	})
	t.Run("malformed", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, bench.FileJSON), []byte("{not json"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadBench(dir); err == nil || !strings.Contains(err.Error(), bench.FileJSON) {
			t.Errorf("LoadBench(malformed) = %v, want an error naming %s", err, bench.FileJSON)
		}
	})
}

// TestReportWithAndWithoutBench checks the benchmark section both ways.
func TestReportWithAndWithoutBench(t *testing.T) {
	m := sharedTiny(t)
	var md strings.Builder
	if err := WriteMarkdown(&md, Build(m, nil, Options{})); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "No benchmark data") {
		t.Error("without a benchmark, the report does not say so")
	}
	dir := t.TempDir()
	benchDir := filepath.Join(dir, "bench")
	if err := os.MkdirAll(benchDir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeBench(t, benchDir, func(f *os.File, r *bench.Result) error { return bench.WriteJSON(f, r) }, bench.FileJSON)
	if err := os.WriteFile(filepath.Join(benchDir, "throughput-hot.png"), []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := LoadBench(benchDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, m, b, Options{}); err != nil {
		t.Fatal(err)
	}
	data := site(readTree(t, dir), "md")
	for _, want := range []string{"2026-11-30 05:29 UTC", "![benchmark: throughput-hot.png](bench/throughput-hot.png)", "| fenced | 9000 (8100–9900) | 9000 (8100–9900) |",
		"redlock | 5 | 1 | distinct | 2000",
		// floor 9000–11000: basic (8550–10450) and fenced (8100–9900) overlap it, fair (3600–4400) lies below.
		"the floor does 10000 (9000–11000). Measurably dearer (their range lies below the floor's): fair 4000 (3600–4400). Not told apart from the floor (ranges overlap; no winner among them): basic 9500 (8550–10450), fenced 9000 (8100–9900).",
		"measurably slower than the floor: fair 4000 cycles/s (3600–4400)", "Rates move by ±10% between repetitions"} {
		if !strings.Contains(data, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(data, "No benchmark data") {
		t.Error("with a benchmark, the report still says there is none")
	}
}

// TestBenchCaveatIsMeasured: the caveat's figure is the median of the
// rows' half-ranges over their medians, and it follows the rows.
func TestBenchCaveatIsMeasured(t *testing.T) {
	row := func(med, lo, hi float64) bench.Row {
		return bench.Row{CyclesPerSec: med, CyclesPerSecMin: lo, CyclesPerSecMax: hi}
	}
	b := &Bench{Rows: []bench.Row{row(100, 90, 110), row(100, 80, 120), row(100, 50, 150)}}
	if got := benchCaveat(b); !strings.Contains(got, "±20%") {
		t.Errorf("caveat of rows moving ±10%%, ±20%%, ±50%% = %q, want the median ±20%%", got)
	}
	b.Rows[0] = row(100, 40, 160)
	if got := benchCaveat(b); !strings.Contains(got, "±50%") {
		t.Errorf("caveat after a row's range widened = %q, want ±50%%", got)
	}
	if got := benchCaveat(&Bench{}); !strings.Contains(got, "no range") {
		t.Errorf("caveat without ranges = %q", got)
	}
}

// TestRatioTextSaysWhatItIs: the × floor column gives the median of
// paired ratios with its interval, and the interval's level where it falls
// short of 95%.
func TestRatioTextSaysWhatItIs(t *testing.T) {
	r := bench.Row{Family: bench.Single, RatioFloor: 0.92, RatioReferenceLo: 0.85, RatioReferenceHi: 1.01, CILevel: 0.99}
	if got := ratioText(r); got != "0.92 [0.85–1.01]" {
		t.Errorf("ratioText = %q, want 0.92 [0.85–1.01]", got)
	}
	r.CILevel = 0.875
	if got := ratioText(r); got != "0.92 [0.85–1.01, 88%]" {
		t.Errorf("ratioText at a level below 95%% = %q, want the level printed", got)
	}
}
