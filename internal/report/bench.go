package report

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/locksim/locksim/bench"
)

// Bench is the latest benchmark run, as package bench wrote it.
type Bench struct {
	Dir     string    // the directory it was read from
	File    string    // the file read (bench.FileJSON, or bench.FileRows)
	Target  string    // what was measured: redis-server, miniredis...
	Demo    bool      // measured on embedded miniredis, not a real server
	Started time.Time // the benchmark's own date; zero when read from CSV
	Rows    []bench.Row
	Plots   []string // the PNG plots in Dir, sorted
}

// benchFile is the part of bench.WriteJSON's output the report reads.
type benchFile struct {
	Target  string      `json:"target"`
	Demo    bool        `json:"demo"`
	Started time.Time   `json:"started"`
	Rows    []bench.Row `json:"rows"`
}

// LoadBench reads the benchmark results in dir: the JSON if present, else
// the CSV. It returns nil and no error when dir holds neither.
func LoadBench(dir string) (*Bench, error) {
	b, err := loadBenchJSON(dir)
	if errors.Is(err, fs.ErrNotExist) {
		b, err = loadBenchCSV(dir)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	b.Dir = dir
	b.Plots, err = filepath.Glob(filepath.Join(dir, "*.png"))
	for i, p := range b.Plots {
		b.Plots[i] = filepath.Base(p)
	}
	slices.Sort(b.Plots)
	return b, err
}

func loadBenchJSON(dir string) (*Bench, error) {
	path := filepath.Join(dir, bench.FileJSON)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f benchFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("report: benchmark %s: %w", path, err)
	}
	if len(f.Rows) == 0 {
		return nil, fmt.Errorf("report: benchmark %s: no rows", path)
	}
	return &Bench{File: bench.FileJSON, Target: f.Target, Demo: f.Demo, Started: f.Started, Rows: f.Rows}, nil
}

func loadBenchCSV(dir string) (*Bench, error) {
	path := filepath.Join(dir, bench.FileRows)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("report: benchmark %s: %w", path, err)
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("report: benchmark %s: no rows", path)
	}
	b := &Bench{File: bench.FileRows}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	for n, rec := range recs[1:] {
		r, target, err := parseBenchRow(col, rec)
		if err != nil {
			return nil, fmt.Errorf("report: benchmark %s line %d: %w", path, n+2, err)
		}
		b.Target, b.Rows = target, append(b.Rows, r)
	}
	return b, nil
}

// parseBenchRow reads the columns the report uses; each must be present.
func parseBenchRow(col map[string]int, rec []string) (bench.Row, string, error) {
	var r bench.Row
	var errs []error
	str := func(name string) string {
		i, ok := col[name]
		if !ok || i >= len(rec) {
			errs = append(errs, fmt.Errorf("column %s missing", name))
			return ""
		}
		return rec[i]
	}
	num := func(name string) float64 {
		v, err := strconv.ParseFloat(str(name), 64)
		if err != nil {
			errs = append(errs, fmt.Errorf("column %s: %w", name, err))
		}
		return v
	}
	target := str("target")
	r.Family, r.Subject, r.Kind, r.Keys = bench.Family(str("family")), str("subject"), bench.Kind(str("kind")), bench.KeyMode(str("keys"))
	r.Nodes, r.Clients, r.Reps = int(num("nodes")), int(num("clients")), int(num("reps"))
	r.CyclesPerSec, r.RatioFloor, r.RoundTripsPerCycle = num("cycles_per_sec"), num("ratio_floor"), num("round_trips_per_cycle")
	r.AcquireP50, r.AcquireP99, r.AcquireP999 = num("acquire_p50_us"), num("acquire_p99_us"), num("acquire_p999_us")
	r.CycleP50, r.CycleP99, r.CycleP999 = num("cycle_p50_us"), num("cycle_p99_us"), num("cycle_p999_us")
	r.Reference, r.RatioReference = str("reference"), num("ratio_reference")
	return r, target, errors.Join(errs...)
}

// rows returns the rows of family f and key mode k, in file order.
func (b *Bench) rows(f bench.Family, k bench.KeyMode) []bench.Row {
	var out []bench.Row
	for _, r := range b.Rows {
		if r.Family == f && r.Keys == k {
			out = append(out, r)
		}
	}
	return out
}

// find returns the row of subject in family f with clients and keys k.
func (b *Bench) find(f bench.Family, subject string, clients int, k bench.KeyMode) (bench.Row, bool) {
	for _, r := range b.Rows {
		if r.Family == f && r.Subject == subject && r.Clients == clients && r.Keys == k {
			return r, true
		}
	}
	return bench.Row{}, false
}

// date is the benchmark's date for the report, or a note when unknown.
func (b *Bench) date() string {
	if b.Started.IsZero() {
		return "date not recorded (read from " + b.File + ")"
	}
	return b.Started.UTC().Format("2006-01-02 15:04 UTC")
}

// label is the benchmark's target, marked when it was a demo.
func (b *Bench) label() string {
	if b.Demo {
		return strings.TrimSpace(b.Target + " (demo: embedded miniredis, not a real server)")
	}
	return b.Target
}
