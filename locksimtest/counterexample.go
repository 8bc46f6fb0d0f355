package locksimtest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/locksim/locksim/linearizability"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// vizTimeout bounds the porcupine check behind a counterexample's page.
const vizTimeout = time.Minute

// writeCounterexample reruns f's seed with a trace and writes, in o.Dir,
// the scenario inline (a file `locksim run --scenario` and the harness
// read) headed by what broke and how to replay it, porcupine's page of
// the run's history, and the trace; it records the absolute paths in f.
func (c *cell) writeCounterexample(f *Finding, o Options) error {
	if w, ok := c.written[f.Seed]; ok { // another claim broken by the same seed
		f.Counterexample, f.HTML, f.Trace = w.Counterexample, w.HTML, w.Trace
		return nil
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return fmt.Errorf("locksimtest: counterexample directory: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("locksimtest: counterexample directory: %w", err)
	}
	base := filepath.Join(dir, fmt.Sprintf("%s--%s--seed-%d", c.p.Name, c.s.name, f.Seed))
	var trace bytes.Buffer
	res, err := sim.Run(sim.Config{Pattern: c.p, Scenario: c.s.sc, Seed: f.Seed, StallAfter: o.StallAfter, Trace: &trace})
	if err != nil {
		return fmt.Errorf("locksimtest: rerun of %s under %s, seed %d, for its counterexample: %w", c.p.Name, c.s.name, f.Seed, err)
	}
	f.Counterexample, f.Trace, f.HTML = base+".txt", base+".trace", base+".html"
	if err := os.WriteFile(f.Counterexample, []byte(c.scenarioText(*f, res)), 0o644); err != nil {
		return fmt.Errorf("locksimtest: counterexample: %w", err)
	}
	if err := os.WriteFile(f.Trace, trace.Bytes(), 0o644); err != nil {
		return fmt.Errorf("locksimtest: counterexample trace: %w", err)
	}
	if c.written == nil {
		c.written = map[uint64]Finding{}
	}
	c.written[f.Seed] = *f
	return writePage(f.HTML, res)
}

// scenarioText is the counterexample file: comments saying what broke and
// how to replay it, then the scenario in its canonical text.
func (c *cell) scenarioText(f Finding, res *sim.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# counterexample: %s under %s (%s), seed %d breaks %s\n", c.p.Name, c.s.name, c.s.origin, f.Seed, strings.Join(res.Violated, ", "))
	fmt.Fprintf(&b, "# %s\n", res.Summary())
	for i, v := range res.Violations {
		if i == 3 {
			fmt.Fprintf(&b, "# ... %d violations in all\n", res.Stats.Violations)
			break
		}
		fmt.Fprintf(&b, "# %s at t=%v: %s %s\n", v.Kind, time.Duration(v.At), strings.Join(v.Clients, ","), v.Detail)
	}
	fmt.Fprintf(&b, "# replay: %s\n", f.Replay)
	fmt.Fprintf(&b, "# or, for a pattern the locksim command knows: locksim run --pattern %s --scenario %s --seed %d\n",
		c.p.Name, f.Counterexample, f.Seed)
	b.WriteString(scenario.Format(c.s.sc))
	return b.String()
}

// writePage checks the run's history with porcupine and writes the
// visualisation, faults on the timeline.
func writePage(path string, res *sim.Result) error {
	rep, err := linearizability.Check(res.History, linearizability.Options{Timeout: vizTimeout})
	if err != nil {
		return fmt.Errorf("locksimtest: porcupine check: %w", err)
	}
	var page bytes.Buffer
	if err := linearizability.WriteViz(&page, res.History, rep); err != nil {
		return fmt.Errorf("locksimtest: porcupine page: %w", err)
	}
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		return fmt.Errorf("locksimtest: porcupine page: %w", err)
	}
	return nil
}
