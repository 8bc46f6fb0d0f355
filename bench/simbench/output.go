package simbench

import (
	"encoding/csv"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/locksim/locksim/bench"
)

// WriteCSV writes one line per sample (pattern × repetition).
func WriteCSV(w io.Writer, res *Result) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"pattern", "rep", "seeds", "wall_s", "cpu_s", "seeds_per_min", "seeds_per_cpu_min", "cmds_per_seed"})
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
	for _, s := range res.Samples {
		_ = cw.Write([]string{s.Pattern, strconv.Itoa(s.Rep), strconv.Itoa(s.Seeds),
			f(s.Wall.Seconds()), f(s.CPU.Seconds()), f(s.SeedsPerMin()), f(s.SeedsPerCPUMin()),
			f(float64(s.Commands) / float64(s.Seeds))})
	}
	cw.Flush()
	return cw.Error()
}

// WriteMarkdown writes the summary table and the goal.
func WriteMarkdown(w io.Writer, res *Result) error {
	var b strings.Builder
	c := res.Config
	fmt.Fprintf(&b, "# Simulator: seeds per minute\n\n")
	fmt.Fprintf(&b, "Started %s on %s/%s, %d CPUs, GOMAXPROCS %d, %s. Scenario `%s`; each repetition runs "+
		"seeds 1–%d of every pattern one after another on one goroutine (what `locksim explore --parallel 1` does), "+
		"the patterns in an order rotated each repetition; %d repetitions. Wall rates follow the machine's load; "+
		"CPU rates (user + system time of the process) much less.\n\n",
		res.Started, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(),
		c.Scenario, c.Seeds, c.Reps)
	fmt.Fprintf(&b, "Figures: median [interval] over the repetitions; the interval is distribution-free "+
		"(benchstat's method, aiming at %.0f%%; its level is in the last column). ", bench.ConfidenceLevel*100)
	fmt.Fprintf(&b, "Goal: every pattern ≥ %.0f seeds per CPU-minute — met when the interval lies at or above it, "+
		"missed when wholly below, within noise otherwise.\n\n", c.Goal)
	b.WriteString("| pattern | nodes | seeds/CPU-min | seeds/min (wall) | commands/seed | goal | interval level |\n")
	b.WriteString("|---|---:|---:|---:|---:|---|---:|\n")
	for _, r := range res.Rows {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %.0f | **%s** | %.1f%% |\n", r.Pattern, r.Nodes,
			rate(r.PerCPUMin), rate(r.PerMin), r.CmdsPerSeed, r.Status, r.PerCPUMin.Level*100)
	}
	b.WriteString("\nRaw figures, one line per pattern and repetition: `sim.csv`. Regenerate with `make bench-sim`.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func rate(iv bench.Interval) string {
	if iv.Lo == iv.Hi {
		return fmt.Sprintf("%.0f", iv.Median)
	}
	return fmt.Sprintf("%.0f [%.0f–%.0f]", iv.Median, iv.Lo, iv.Hi)
}
