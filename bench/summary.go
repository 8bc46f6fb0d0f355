package bench

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
)

// WriteSummary writes the Markdown summary: the setting, the goals, and
// tables of cycles/s with ratios to the reference, latencies and round trips.
func WriteSummary(w io.Writer, res *Result) error {
	var b strings.Builder
	writeHeader(&b, res)
	writeGoals(&b, Goals(res))
	for _, k := range res.Config.Keys {
		writeFamilyTable(&b, res, Single, 1, k)
	}
	for _, n := range res.Config.QuorumNodes {
		for _, k := range res.Config.Keys {
			writeFamilyTable(&b, res, Quorum, n, k)
		}
	}
	writeFiles(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeHeader(b *strings.Builder, res *Result) {
	fmt.Fprintf(b, "%s\n\n", summaryTitle)
	if res.Demo {
		fmt.Fprintf(b, "**Demo path: embedded miniredis.** These figures show the harness working, not what Redis costs: "+
			"miniredis runs every command behind one lock and builds a Lua interpreter per script call. "+
			"Run against redis-server (`--redis ADDR,...` or `--spawn 5`) for real figures.\n\n")
	}
	c := res.Config
	fmt.Fprintf(b, "Target: %s. Started %s on %s/%s, %d CPUs, %s.\n", res.Target,
		res.Started.Format("2006-01-02 15:04 UTC"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Fprintf(b, "Each run: %.0f ms warm-up, %.0f ms measured; %d repetitions per cell, the subjects of a cell "+
		"interleaved in an order rotated each repetition; lock TTL %.0f ms.\n", c.WarmupMS, c.DurationMS, c.Reps, c.TTLMS)
	fmt.Fprintf(b, "Rates are medians over repetitions; ratios are medians of per-repetition ratios to the reference "+
		"run moments apart; latencies are percentiles over every cycle of every repetition (log-bucketed histogram, <1%% error). "+
		"A client retries at once when a one-shot subject finds the lock taken (the tight retry loop); "+
		"service blocks with its own backoff, and the quorum subjects retry with jitter.\n\n")
	writeIntervalNote(b, c.Reps)
}

// writeIntervalNote says how the intervals are made and what they cover
// with this many repetitions.
func writeIntervalNote(b *strings.Builder, reps int) {
	fmt.Fprintf(b, "Intervals: distribution-free confidence intervals of the median over the repetitions "+
		"(benchstat's method, from order statistics), aiming at %.0f%%; a goal is met when its interval lies at or "+
		"above the threshold, missed when wholly below, within noise otherwise.", ConfidenceLevel*100)
	if lvl := coverage(reps, 1); reps > 1 && lvl < ConfidenceLevel {
		fmt.Fprintf(b, " With %d repetitions even [min, max] covers only %.1f%%: run `make bench-long` "+
			"(6 or more repetitions) for %.0f%% intervals.", reps, lvl*100, ConfidenceLevel*100)
	}
	b.WriteString("\n\n")
}

// fmtSpread is the rate interval's larger half-width, in percent: " ±6%".
func fmtSpread(r Row) string {
	if r.CyclesPerSec <= 0 || r.CyclesPerSecHi == r.CyclesPerSecLo {
		return ""
	}
	w := max(r.CyclesPerSecHi-r.CyclesPerSec, r.CyclesPerSec-r.CyclesPerSecLo) / r.CyclesPerSec
	return fmt.Sprintf(" ±%.0f%%", w*100)
}

// fmtRatioCI is the ratio to the reference with its interval.
func fmtRatioCI(r Row) string {
	if r.RatioReference == 0 || r.RatioReferenceLo == r.RatioReferenceHi {
		return fmtRatio(r.RatioReference)
	}
	return fmt.Sprintf("%.2f [%.2f–%.2f]", r.RatioReference, r.RatioReferenceLo, r.RatioReferenceHi)
}

func writeGoals(b *strings.Builder, goals []Goal) {
	fmt.Fprintf(b, "## Goals\n\n| goal | measured | status |\n|---|---|---|\n")
	for _, g := range goals {
		fmt.Fprintf(b, "| %s | %s | **%s** |\n", g.Goal, g.Measured, g.Status)
	}
	b.WriteString("\n")
}

// writeFamilyTable writes one table: a line per subject, a column per
// client count, each cell "rate (ratio)", then round trips and p99s at the
// highest client count.
func writeFamilyTable(b *strings.Builder, res *Result, fam Family, nodes int, keys KeyMode) {
	rows := selectRows(res.Rows, fam, nodes, keys)
	if len(rows) == 0 {
		return
	}
	clients := res.Config.Clients
	top := slices.Max(clients)
	fmt.Fprintf(b, "## %s\n\ncycles/s ±half-width of its interval (ratio to %s [interval]) by clients; round trips per cycle, p99 acquire wait and p99 cycle at %d clients.\n\n",
		tableTitle(fam, nodes, keys), referenceOf(fam), top)
	b.WriteString("| subject |")
	for _, c := range clients {
		fmt.Fprintf(b, " %d |", c)
	}
	b.WriteString(" RT/cycle | p99 acquire | p99 cycle | failed/s |\n|---|")
	b.WriteString(strings.Repeat("---:|", len(clients)+4) + "\n")
	for _, name := range rowSubjects(rows) {
		fmt.Fprintf(b, "| %s |", name)
		for _, c := range clients {
			if r, ok := findRow(rows, name, c); ok {
				fmt.Fprintf(b, " %s%s (%s) |", fmtRate(r.CyclesPerSec), fmtSpread(r), fmtRatioCI(r))
			} else {
				b.WriteString(" – |")
			}
		}
		if r, ok := findRow(rows, name, top); ok {
			fmt.Fprintf(b, " %.2f | %s | %s | %s |", r.RoundTripsPerCycle, fmtUS(r.AcquireP99), fmtUS(r.CycleP99), fmtRate(r.FailedPerSec))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

func tableTitle(fam Family, nodes int, keys KeyMode) string {
	what := "a key per client"
	if keys == Hot {
		what = "one hot key"
	}
	if fam == Quorum {
		return fmt.Sprintf("Redlock over %d node(s), %s", nodes, what)
	}
	return "Single node, " + what
}

func selectRows(rows []Row, fam Family, nodes int, keys KeyMode) []Row {
	var out []Row
	for _, r := range rows {
		if r.Family == fam && r.Nodes == nodes && r.Keys == keys {
			out = append(out, r)
		}
	}
	return out
}

// rowSubjects lists the subjects of rows in row order, each once.
func rowSubjects(rows []Row) []string {
	var out []string
	for _, r := range rows {
		if !slices.Contains(out, r.Subject) {
			out = append(out, r.Subject)
		}
	}
	return out
}

func findRow(rows []Row, subject string, clients int) (Row, bool) {
	for _, r := range rows {
		if r.Subject == subject && r.Clients == clients {
			return r, true
		}
	}
	return Row{}, false
}

func writeFiles(b *strings.Builder) {
	b.WriteString("## Files\n\n")
	b.WriteString("- `results.csv`, `results.json`: one row per subject and cell (JSON adds every repetition); `samples.csv`: every repetition.\n")
	b.WriteString("- `throughput-*.png|svg`: cycles/s against clients; `latency-*.png|svg`: p50/p99/p99.9 of the cycle; " +
		"`redlock-nodes.png|svg`: Redlock latency against node count; `contention.png|svg`: the hot key's acquire wait against clients.\n")
}

// fmtRatio formats a ratio; 0 means its reference completed no cycle.
func fmtRatio(v float64) string {
	if v == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", v)
}

// fmtRate formats a rate with thousands separators.
func fmtRate(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// fmtUS formats microseconds as µs, ms or s.
func fmtUS(us float64) string {
	switch {
	case us >= 1e6:
		return fmt.Sprintf("%.2f s", us/1e6)
	case us >= 1e3:
		return fmt.Sprintf("%.1f ms", us/1e3)
	default:
		return fmt.Sprintf("%.0f µs", us)
	}
}

// WriteTable writes the rows as an aligned text table (for a terminal).
func WriteTable(w io.Writer, res *Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "family\tnodes\tkeys\tclients\tsubject\tcycles/s\tvs floor\tvs ref\tfailed/s\tRT/cycle\tacq p50\tacq p99\tcycle p99\tcycle p99.9\terrors\t")
	for _, r := range res.Rows {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%d\t\n",
			r.Family, r.Nodes, r.Keys, r.Clients, r.Subject, fmtRate(r.CyclesPerSec), fmtRatio(r.RatioFloor), fmtRatio(r.RatioReference),
			fmtRate(r.FailedPerSec), r.RoundTripsPerCycle, fmtUS(r.AcquireP50), fmtUS(r.AcquireP99),
			fmtUS(r.CycleP99), fmtUS(r.CycleP999), r.Errors)
	}
	return tw.Flush()
}
