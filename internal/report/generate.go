package report

import (
	"context"

	"github.com/locksim/locksim/internal/reportdir"
)

// FileManifest is the file, in the report's directory, that lists the
// files the report wrote there (reportdir.Manifest).
const FileManifest = reportdir.Manifest

// Job is one report: what it measures (Phases, with their progress), what
// it shows beside the measurements, and the directory it goes into.
type Job struct {
	Phases
	// Out is the report's directory, created if missing; Force writes
	// into one that holds other files and no earlier report, beside them,
	// never over them (reportdir.Open).
	Out   string
	Force bool
	// Inputs loads the latest benchmark and real mode's agreement table
	// (each nil for none). Generate calls it once the directory is
	// checked, before it takes the directory's lock; nil loads neither.
	Inputs func() (*Bench, *Agreement, error)
	// Commit and Command are shown in the report (Options).
	Commit, Command string
	// Resumed, if set, is told how many files of an interrupted install
	// into Out Generate completed before anything else.
	Resumed func(files int)
	// Measure, if set, runs the measurement (run: Phases.Run) in
	// Generate's stead, and may return before it ends (the command
	// returns at once on an interrupt); nothing is written then.
	Measure func(run func() (*Measured, error)) (*Measured, error)
}

// Generate makes the report j describes, every phase of it, and writes
// it into j.Out: it checks the directory (reportdir.Open) and loads the
// inputs before any work, takes the directory's lock and completes an
// install a killed report left, measures every phase, then writes the
// report aside and puts it in place (reportdir). A report that fails or
// is stopped before its install leaves the directory as it was. An
// error that IsUsage is the directory's as given; the errors of Inputs
// and Measure are returned as they are.
func Generate(ctx context.Context, j Job) (*Measured, error) {
	d, err := reportdir.Open(j.Out, j.Force, PageFiles())
	if err != nil {
		return nil, err
	}
	var (
		b     *Bench
		agree *Agreement
	)
	if j.Inputs != nil {
		if b, agree, err = j.Inputs(); err != nil {
			return nil, err
		}
	}
	if err := d.Lock(); err != nil {
		return nil, err
	}
	defer d.Unlock()
	if n, err := d.Resume(); err != nil {
		return nil, err
	} else if n > 0 && j.Resumed != nil {
		j.Resumed(n)
	}
	measure := j.Measure
	if measure == nil {
		measure = func(run func() (*Measured, error)) (*Measured, error) { return run() }
	}
	m, err := measure(func() (*Measured, error) { return j.Phases.Run(ctx) })
	if err != nil {
		return nil, err
	}
	opt := Options{Commit: j.Commit, Command: j.Command, Sweeps: m.Sweeps, Agreement: agree, Production: m.Production}
	if b != nil {
		opt.BenchLink = BenchLink(j.Out, b.Dir)
	}
	if err := d.Write(func(staging string) error { return Write(staging, m.Grid, b, opt) }); err != nil {
		return nil, err
	}
	return m, nil
}

// IsUsage reports whether an error of Generate is its directory's as
// given (reportdir.UsageError): the command's bad usage, not a failure
// of the environment.
func IsUsage(err error) bool { return reportdir.IsUsage(err) }
