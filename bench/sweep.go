package bench

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/locksim/locksim/term"
)

// Config is a sweep: which cells, how long each run, how many repetitions.
type Config struct {
	// Clients are the client counts (default 1, 8, 32, 64).
	Clients []int
	// Keys are the key modes (default distinct and hot).
	Keys []KeyMode
	// QuorumNodes are the node counts for the Quorum family (default 1, 3,
	// 5; each odd and at most the target's node count).
	QuorumNodes []int
	// Families are the families to run (default both).
	Families []Family
	// Subjects, if set, keeps only the subjects with these names. The
	// family's reference (floor or fanout) is always kept: ratios need it.
	Subjects []string
	Timing
	// Reps is the number of repetitions of every run (default 3).
	Reps int
	// Progress, if set, receives a progress bar — when it is a terminal;
	// a file or pipe that is not gets nothing (no bar redrawn into a log).
	// A writer that is not an *os.File (a test's buffer) always gets it.
	Progress io.Writer
	// OnProgress, if set, is called after each run with the runs done and
	// the total, from the goroutine that called Run.
	OnProgress func(done, total int)
}

// Defaults for a Config's zero fields.
var (
	DefaultClients     = []int{1, 8, 32, 64}
	DefaultKeys        = []KeyMode{Distinct, Hot}
	DefaultQuorumNodes = []int{1, 3, 5}
)

// ErrConfig marks a Config that cannot run (a bad field or value).
var ErrConfig = errors.New("bad configuration")

// Validate checks cfg as Run will, against a target of nodes nodes; the
// error matches ErrConfig and names the field and value.
func (c Config) Validate(nodes int) error {
	_, err := c.withDefaults(nodes)
	return err
}

// withDefaults fills zero fields and validates; errors name the field.
func (c Config) withDefaults(nodes int) (Config, error) {
	c.Clients = cmpOr(c.Clients, DefaultClients)
	c.Keys = cmpOr(c.Keys, DefaultKeys)
	c.QuorumNodes = cmpOr(c.QuorumNodes, DefaultQuorumNodes)
	c.Families = cmpOr(c.Families, []Family{Single, Quorum})
	c.Reps = max(c.Reps, 0)
	if c.Reps == 0 {
		c.Reps = 3
	}
	if c.Duration == 0 {
		c.Duration = time.Second
	}
	if c.TTL == 0 {
		c.TTL = 10 * time.Second
	}
	if err := c.validate(nodes); err != nil {
		return c, configError{err}
	}
	return c, nil
}

// configError is a validation error; it matches ErrConfig.
type configError struct{ error }

func (e configError) Unwrap() error        { return e.error }
func (e configError) Is(target error) bool { return target == ErrConfig }

func cmpOr[T any](v, def []T) []T {
	if len(v) == 0 {
		return slices.Clone(def)
	}
	return v
}

func (c Config) validate(nodes int) error {
	for _, n := range c.Clients {
		if n < 1 {
			return fmt.Errorf("bench: clients (%d) must be at least 1", n)
		}
	}
	for _, f := range c.Families {
		if f != Single && f != Quorum {
			return fmt.Errorf("bench: family (%q) must be %q or %q", f, Single, Quorum)
		}
	}
	for _, k := range c.Keys {
		if k != Distinct && k != Hot {
			return fmt.Errorf("bench: keys (%q) must be %q or %q", k, Distinct, Hot)
		}
	}
	for _, n := range c.QuorumNodes {
		if !slices.Contains(c.Families, Quorum) {
			break
		}
		if n < 1 || n%2 == 0 || n > nodes {
			return fmt.Errorf("bench: quorum node count (%d) must be odd, at least 1 and at most the target's %d nodes", n, nodes)
		}
	}
	switch {
	case c.Duration <= 0:
		return fmt.Errorf("bench: duration (%v) must be positive", c.Duration)
	case c.Warmup < 0:
		return fmt.Errorf("bench: warmup (%v) must not be negative", c.Warmup)
	case c.TTL < 100*time.Millisecond:
		return fmt.Errorf("bench: ttl (%v) must be at least 100ms", c.TTL)
	}
	return nil
}

// Result is a whole sweep: its setting, every sample and the rows.
type Result struct {
	Target  string    `json:"target"`
	Demo    bool      `json:"demo"`
	Started time.Time `json:"started"`
	Config  Settings  `json:"config"`
	Rows    []Row     `json:"rows"`
	Samples []Sample  `json:"samples"`
}

// Settings is the part of a Config the results record.
type Settings struct {
	Clients     []int     `json:"clients"`
	Keys        []KeyMode `json:"keys"`
	QuorumNodes []int     `json:"quorum_nodes"`
	Families    []Family  `json:"families"`
	WarmupMS    float64   `json:"warmup_ms"`
	DurationMS  float64   `json:"duration_ms"`
	TTLMS       float64   `json:"ttl_ms"`
	Reps        int       `json:"reps"`
	Subjects    []string  `json:"subjects"`
}

// Run measures every subject on every cell of cfg against t. Within a cell
// the subjects run one after another, in an order rotated on every
// repetition (A B C, B C A, ...), so slow drift of a shared machine falls on
// all of them alike and each repetition pairs a subject with its reference
// measured moments apart.
func Run(ctx context.Context, t *Target, subjects []Subject, cfg Config) (*Result, error) {
	cfg, err := cfg.withDefaults(len(t.Addrs))
	if err != nil {
		return nil, err
	}
	jobs := plan(filterSubjects(subjects, cfg.Subjects), cfg)
	res := &Result{Target: t.Name, Demo: t.Demo, Started: time.Now().UTC(), Config: settings(cfg, subjects)}
	bar := newBar(cfg.Progress, len(jobs))
	runID := randomID()
	for i, j := range jobs {
		bar.Describe(fmt.Sprintf("%-10s %s rep %d", j.subject.Name, j.cell, j.rep+1))
		prefix := fmt.Sprintf("locksim:bench:%s:%d", runID, i)
		s, err := runOne(ctx, t, j, cfg.Timing, prefix)
		if err == nil {
			err = judgeRun(ctx, t, s)
		}
		if err != nil {
			return nil, fmt.Errorf("bench: %s on %s: %w", j.subject.Name, j.cell, err)
		}
		res.Samples = append(res.Samples, s)
		_ = bar.Add(1)
		if cfg.OnProgress != nil {
			cfg.OnProgress(i+1, len(jobs))
		}
	}
	_ = bar.Finish()
	res.Rows = aggregate(res.Samples)
	return res, nil
}

// plan lists the runs: for every cell, reps rounds over the family's
// subjects, each round's order rotated by one.
func plan(subjects []Subject, cfg Config) []job {
	var jobs []job
	for _, cell := range cells(cfg) {
		fam := familyOf(subjects, cell.Family)
		if len(fam) == 0 {
			continue
		}
		for rep := range cfg.Reps {
			for k := range fam {
				jobs = append(jobs, job{subject: fam[(k+rep)%len(fam)], cell: cell, rep: rep})
			}
		}
	}
	return jobs
}

// cells lists the Single cells and then the Quorum cells, clients and keys
// varying fastest.
func cells(cfg Config) []Cell {
	var out []Cell
	add := func(f Family, nodes int) {
		for _, k := range cfg.Keys {
			for _, c := range cfg.Clients {
				out = append(out, Cell{Family: f, Nodes: nodes, Clients: c, Keys: k})
			}
		}
	}
	if slices.Contains(cfg.Families, Single) {
		add(Single, 1)
	}
	if slices.Contains(cfg.Families, Quorum) {
		for _, n := range cfg.QuorumNodes {
			add(Quorum, n)
		}
	}
	return out
}

func familyOf(subjects []Subject, f Family) []Subject {
	var out []Subject
	for _, s := range subjects {
		if s.Family == f {
			out = append(out, s)
		}
	}
	return out
}

func filterSubjects(subjects []Subject, only []string) []Subject {
	if len(only) == 0 {
		return subjects
	}
	var out []Subject
	for _, s := range subjects {
		if s.Kind == KindFloor || s.Kind == KindReference || slices.Contains(only, s.Name) {
			out = append(out, s)
		}
	}
	return out
}

func settings(cfg Config, subjects []Subject) Settings {
	s := Settings{Clients: cfg.Clients, Keys: cfg.Keys, QuorumNodes: cfg.QuorumNodes, Families: cfg.Families, Reps: cfg.Reps,
		WarmupMS: ms(cfg.Warmup), DurationMS: ms(cfg.Duration), TTLMS: ms(cfg.TTL)}
	for _, sub := range filterSubjects(subjects, cfg.Subjects) {
		s.Subjects = append(s.Subjects, string(sub.Family)+"/"+sub.Name)
	}
	return s
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// newBar draws to w when it is a terminal or a writer that is not a file
// (a caller's own); a regular file or a pipe gets no bar.
func newBar(w io.Writer, n int) *progressbar.ProgressBar {
	if _, isFile := w.(*os.File); w == nil || isFile && !term.IsTerminal(w) {
		w = io.Discard
	}
	return progressbar.NewOptions(n,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetWidth(24),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
	)
}

func randomID() string {
	var b [4]byte
	_, _ = crand.Read(b[:])
	return hex.EncodeToString(b[:])
}
