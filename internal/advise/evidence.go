package advise

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// FormatEvidence names the evidence file's format; it is raised when a
// field changes meaning or goes away.
const FormatEvidence = "locksim-evidence/1"

// Evidence is what the engine judges from: the simulator's measurements
// of every pattern under the built-in and the production scenarios, as a
// report made them.
type Evidence struct {
	Format string `json:"format"`
	// Commit is the source's commit the report was made from ("" when
	// unknown), Command the command that made it.
	Commit  string `json:"commit"`
	Command string `json:"command,omitempty"`
	// Seeds are the seed counts of a fault scenario, the baseline and a
	// production scenario of a simulated second (0: none measured).
	Seeds           int `json:"seeds"`
	BaselineSeeds   int `json:"baseline_seeds"`
	ProductionSeeds int `json:"production_seeds"`
	// HotKey is the benchmark's throughput of each pattern on one hot key
	// at its highest client count; absent without a benchmark.
	HotKey []Throughput `json:"hot_key,omitempty"`
	// HotKeySource says what the benchmark measured (redis-server...).
	HotKeySource string `json:"hot_key_source,omitempty"`
	// RealSource is the command that made real mode's agreement table
	// the report read ("" when it read none); Real its cells of the
	// patterns measured here, judged fresh or stale against the report's
	// own code when it was made.
	RealSource string `json:"real_source,omitempty"`
	// Patterns, Cells and Real come last, one a line (Write).
	Patterns []Pattern  `json:"patterns,omitempty"`
	Cells    []Cell     `json:"cells,omitempty"`
	Real     []RealCell `json:"real,omitempty"`
}

// Pattern is what the rules need of a measured pattern.
type Pattern struct {
	Name   string `json:"name"`
	Nodes  int    `json:"nodes"`
	Broken bool   `json:"broken"`
	// Tokens: it issues fencing tokens; Renews: it renews its lease (a
	// watchdog); Shared: readers share it; FIFO: it grants in arrival
	// order; MaxHolders: its holder limit when it is not a mutex;
	// Reentrant: its holder may acquire again, counting its holdings.
	Tokens     bool `json:"tokens"`
	Renews     bool `json:"renews"`
	Shared     bool `json:"shared"`
	FIFO       bool `json:"fifo"`
	MaxHolders int  `json:"max_holders"`
	Reentrant  bool `json:"reentrant,omitempty"`
	// Reads: with Shared, the reads per write each client made (1: they
	// alternate).
	Reads int `json:"reads,omitempty"`
	// PartOf names the pattern this one is a side of, measured alone
	// (rwlock-write of rwlock): never a candidate by itself.
	PartOf string   `json:"part_of,omitempty"`
	Claims []string `json:"claims"`
}

// Cell is one pattern under one scenario over its seeds: per oracle
// finding, the seeds in which it occurred and the lowest of them.
type Cell struct {
	Pattern  string `json:"pattern"`
	Scenario string `json:"scenario"`
	Seeds    int    `json:"seeds"`
	// Refused: the pattern refused the scenario's options; nothing ran.
	Refused string `json:"refused,omitempty"`
	// Unfired counts the seeds in which some fault never fired.
	Unfired int `json:"unfired"`
	// Overlap: two clients relied on the lock at one instant of true time.
	Overlap Count `json:"overlap"`
	// Lost: a lost update at the store, the store checking the tokens of
	// the patterns that issue them; LostNoFence, the same seeds with every
	// token withheld (nil where the pattern issues none or it was not run).
	Lost        Count  `json:"lost"`
	LostNoFence *Count `json:"lost_no_fence,omitempty"`
	// Excess: more holders at once than the pattern's limit.
	Excess Count `json:"excess"`
	// Stall: the lock stayed free past the progress bound.
	Stall Count `json:"stall"`
	// AcqPerSec is acquisitions per simulated second.
	AcqPerSec float64 `json:"acq_per_sec"`
	// DoubleRuns counts the pairs of overlapping critical sections over
	// the seeds — the work run twice at once, as executions — and
	// Acquisitions the acquisitions they came from.
	DoubleRuns   int `json:"double_runs"`
	Acquisitions int `json:"acquisitions"`
}

// Count is the seeds with a finding and the lowest of them (0 if none).
type Count struct {
	Runs  int    `json:"runs"`
	First uint64 `json:"first_seed,omitempty"`
}

// Throughput is a benchmark median with its interval.
type Throughput struct {
	Pattern      string  `json:"pattern"`
	Clients      int     `json:"clients"`
	CyclesPerSec float64 `json:"cycles_per_sec"`
	Lo           float64 `json:"lo"`
	Hi           float64 `json:"hi"`
}

// ReadEvidence decodes and checks an evidence file.
func ReadEvidence(r io.Reader) (*Evidence, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var e Evidence
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	}
	if err := e.Check(); err != nil {
		return nil, err
	}
	return &e, nil
}

// Check refuses evidence the engine cannot judge from: another format,
// cells of patterns it does not describe, counts out of range.
func (e *Evidence) Check() error {
	if e.Format != FormatEvidence {
		return fmt.Errorf("evidence: format %q, want %q", e.Format, FormatEvidence)
	}
	if len(e.Patterns) == 0 {
		return errors.New("evidence: no patterns")
	}
	for _, c := range e.Cells {
		if e.pattern(c.Pattern) == nil {
			return fmt.Errorf("evidence: cell %s under %s: no such pattern", c.Pattern, c.Scenario)
		}
		for _, k := range []Count{c.Overlap, c.Lost, c.Excess, c.Stall} {
			if k.Runs < 0 || k.Runs > c.Seeds {
				return fmt.Errorf("evidence: cell %s under %s: %d runs of %d seeds", c.Pattern, c.Scenario, k.Runs, c.Seeds)
			}
		}
	}
	for _, c := range e.Real {
		if e.pattern(c.Pattern) == nil {
			return fmt.Errorf("evidence: real cell %s under %s: no such pattern", c.Pattern, c.Scenario)
		}
		if c.Runs <= 0 {
			return fmt.Errorf("evidence: real cell %s under %s: %d runs", c.Pattern, c.Scenario, c.Runs)
		}
	}
	if len(e.Real) > 0 && e.RealSource == "" {
		return errors.New("evidence: real cells without real_source")
	}
	return nil
}

// Write encodes e: its fields, then one pattern and one cell a line, so
// that two reports' evidence compare line by line.
func (e *Evidence) Write(w io.Writer) error {
	head := *e
	head.Patterns, head.Cells, head.Real = nil, nil, nil // omitted: written below, one a line
	b, err := json.Marshal(head)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	out.Write(b[:len(b)-1])
	for _, part := range []struct {
		name  string
		items func(func(any))
	}{
		{"patterns", func(f func(any)) {
			for _, p := range e.Patterns {
				f(p)
			}
		}},
		{"cells", func(f func(any)) {
			for _, c := range e.Cells {
				f(c)
			}
		}},
		{"real", func(f func(any)) {
			for _, c := range e.Real {
				f(c)
			}
		}},
	} {
		fmt.Fprintf(&out, ",\n%q: [", part.name)
		sep := "\n"
		part.items(func(v any) {
			line, _ := json.Marshal(v) // plain structs: no error
			out.WriteString(sep)
			out.Write(line)
			sep = ",\n"
		})
		out.WriteString("\n]")
	}
	out.WriteString("}\n")
	_, err = w.Write(out.Bytes())
	return err
}

func (e *Evidence) pattern(name string) *Pattern {
	i := slices.IndexFunc(e.Patterns, func(p Pattern) bool { return p.Name == name })
	if i < 0 {
		return nil
	}
	return &e.Patterns[i]
}

// cell returns pattern under scenario, or nil when it was not measured.
func (e *Evidence) cell(pattern, scenario string) *Cell {
	for i := range e.Cells {
		if e.Cells[i].Pattern == pattern && e.Cells[i].Scenario == scenario {
			return &e.Cells[i]
		}
	}
	return nil
}
