package bench

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/locksim/locksim/internal/safefile"
)

// rowColumns are the CSV header of WriteCSV, in order.
var rowColumns = []string{
	"target", "family", "subject", "kind", "nodes", "clients", "keys", "reps",
	"cycles_per_sec", "cycles_per_sec_min", "cycles_per_sec_max", "failed_per_sec", "errors",
	"round_trips_per_cycle",
	"acquire_p50_us", "acquire_p99_us", "acquire_p999_us",
	"cycle_p50_us", "cycle_p99_us", "cycle_p999_us",
	"ratio_floor", "reference", "ratio_reference",
	"cycles_per_sec_lo", "cycles_per_sec_hi", "ratio_reference_lo", "ratio_reference_hi", "ci_level",
}

func (r Row) record(target string) []string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
	d := strconv.Itoa
	return []string{
		target, string(r.Family), r.Subject, string(r.Kind), d(r.Nodes), d(r.Clients), string(r.Keys), d(r.Reps),
		f(r.CyclesPerSec), f(r.CyclesPerSecMin), f(r.CyclesPerSecMax), f(r.FailedPerSec),
		strconv.FormatInt(r.Errors, 10), f(r.RoundTripsPerCycle),
		f(r.AcquireP50), f(r.AcquireP99), f(r.AcquireP999),
		f(r.CycleP50), f(r.CycleP99), f(r.CycleP999),
		f(r.RatioFloor), r.Reference, f(r.RatioReference),
		f(r.CyclesPerSecLo), f(r.CyclesPerSecHi), f(r.RatioReferenceLo), f(r.RatioReferenceHi), f(r.CILevel),
	}
}

// WriteCSV writes one line per row, with a header.
func WriteCSV(w io.Writer, res *Result) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(rowColumns)
	for _, r := range res.Rows {
		_ = cw.Write(r.record(res.Target))
	}
	cw.Flush()
	return cw.Error()
}

// sampleColumns are the CSV header of WriteSamplesCSV.
var sampleColumns = []string{
	"target", "family", "subject", "kind", "nodes", "clients", "keys", "rep",
	"window_ms", "acquired", "failed", "errors", "round_trips", "cycles_per_sec",
	"acquire_p50_us", "acquire_p99_us", "acquire_p999_us", "cycle_p50_us", "cycle_p99_us", "cycle_p999_us",
}

// sampleJSON is the flat form of a Sample in JSON and CSV.
type sampleJSON struct {
	Subject      string  `json:"subject"`
	Kind         Kind    `json:"kind"`
	Cell         Cell    `json:"cell"`
	Rep          int     `json:"rep"`
	WindowMS     float64 `json:"window_ms"`
	Acquired     int64   `json:"acquired"`
	Failed       int64   `json:"failed"`
	Errors       int64   `json:"errors"`
	FirstError   string  `json:"first_error,omitempty"`
	RoundTrips   int64   `json:"round_trips"`
	CyclesPerSec float64 `json:"cycles_per_sec"`
	AcquireP50   float64 `json:"acquire_p50_us"`
	AcquireP99   float64 `json:"acquire_p99_us"`
	AcquireP999  float64 `json:"acquire_p999_us"`
	CycleP50     float64 `json:"cycle_p50_us"`
	CycleP99     float64 `json:"cycle_p99_us"`
	CycleP999    float64 `json:"cycle_p999_us"`
}

func (s *Sample) flat() sampleJSON {
	j := sampleJSON{Subject: s.Subject, Kind: s.Kind, Cell: s.Cell, Rep: s.Rep, WindowMS: ms(s.Window),
		Acquired: s.Acquired, Failed: s.Failed, Errors: s.Errors, FirstError: s.FirstError,
		RoundTrips: s.RoundTrips, CyclesPerSec: s.PerSecond()}
	j.AcquireP50, j.AcquireP99, j.AcquireP999 = percentilesUS(&s.Acquire)
	j.CycleP50, j.CycleP99, j.CycleP999 = percentilesUS(&s.Cycle)
	return j
}

// MarshalJSON writes the sample's counts and percentiles.
func (s Sample) MarshalJSON() ([]byte, error) { return json.Marshal(s.flat()) }

// WriteSamplesCSV writes one line per run (every repetition).
func WriteSamplesCSV(w io.Writer, res *Result) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(sampleColumns)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
	i := strconv.FormatInt
	for k := range res.Samples {
		s := res.Samples[k].flat()
		_ = cw.Write([]string{res.Target, string(s.Cell.Family), s.Subject, string(s.Kind),
			strconv.Itoa(s.Cell.Nodes), strconv.Itoa(s.Cell.Clients), string(s.Cell.Keys), strconv.Itoa(s.Rep),
			f(s.WindowMS), i(s.Acquired, 10), i(s.Failed, 10), i(s.Errors, 10), i(s.RoundTrips, 10),
			f(s.CyclesPerSec), f(s.AcquireP50), f(s.AcquireP99), f(s.AcquireP999),
			f(s.CycleP50), f(s.CycleP99), f(s.CycleP999)})
	}
	cw.Flush()
	return cw.Error()
}

// FormatJSON names the JSON WriteJSON writes and its version, in its
// first field, format.
const FormatJSON = "locksim-bench/1"

// WriteJSON writes the whole result: its format, settings, rows and
// samples.
func WriteJSON(w io.Writer, res *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Format string `json:"format"`
		*Result
	}{FormatJSON, res})
}

// The files WriteReport writes into its directory (plots add theirs).
const (
	FileRows    = "results.csv"
	FileSamples = "samples.csv"
	FileJSON    = "results.json"
	FileSummary = "README.md"
)

// WriteReport writes the raw data (CSV, JSON), the plots (PNG and SVG) and
// a Markdown summary into dir, creating it.
func WriteReport(dir string, res *Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	writers := []struct {
		name  string
		write func(io.Writer, *Result) error
	}{
		{FileRows, WriteCSV}, {FileSamples, WriteSamplesCSV}, {FileJSON, WriteJSON}, {FileSummary, WriteSummary},
	}
	var errs []error
	for _, wr := range writers {
		errs = append(errs, writeFile(filepath.Join(dir, wr.name), func(w io.Writer) error { return wr.write(w, res) }))
	}
	errs = append(errs, WritePlots(dir, res))
	return errors.Join(errs...)
}

// writeFile writes path atomically: a failed write leaves the old file.
func writeFile(path string, write func(io.Writer) error) error {
	return safefile.Write(path, write)
}

// ReadJSON reads what WriteJSON wrote, all but its samples (written as
// counts and percentiles, they do not read back into histograms): what
// WritePlots draws from.
func ReadJSON(r io.Reader) (*Result, error) {
	var f struct {
		Format string `json:"format"`
		Result
		Samples json.RawMessage `json:"samples"`
	}
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		return nil, fmt.Errorf("bench results: %w", err)
	}
	if f.Format != FormatJSON {
		return nil, fmt.Errorf("bench results: format %q, want %q", f.Format, FormatJSON)
	}
	if len(f.Rows) == 0 {
		return nil, fmt.Errorf("bench results: no rows")
	}
	res := f.Result
	res.Samples = nil
	return &res, nil
}
