package explore

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/locksim/locksim/sim"
)

// WriteText writes r as a table, one row per cell, then a replay command
// for every cell that violated a claim, the findings of claims a cell's
// pattern does not make (counted in no rate), and the first error of
// every cell whose runs did not complete.
func (r *Report) WriteText(w io.Writer) error {
	if r.Partial != nil {
		fmt.Fprintf(w, "PARTIAL: stopped after %d of %d runs; the cells hold the runs that finished\n\n", r.Partial.Done, r.Partial.Total)
	}
	if r.Shard != nil {
		fmt.Fprintf(w, "shards %s of %d (each cell's seeds with seed %% %d in that set)\n\n", joinInts(r.Shard.Have), r.Shard.N, r.Shard.N)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATTERN\tSCENARIO\tSEEDS\tRUNS\tVIOLATING\tBROKE\tFIRST SEED\tLOST UPDATES\tOVERLAPS\tFENCE\tACQ/RUN\tWAIT MEAN\tSTUCK\tERRORS\tVIOL/SIM-H\tVIOL/1M ACQ")
	for _, c := range r.Cells {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%d\t%d\t%d\t%.1f\t%v\t%d\t%d\t%.2f\t%.2f\n",
			c.Pattern, c.Scenario, seedRange(c.Seeds), c.Runs, c.ViolatingRuns, broke(c), seedOrDash(c.FirstViolated),
			c.LostUpdates, c.Overlaps, c.FenceViolations, c.AcquisitionsPerRun, time.Duration(c.WaitMeanNs).Round(time.Microsecond),
			c.StuckClients, c.Errors, c.ViolationsPerSimHour, c.ViolationsPerMillionAcquisitions)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return r.writeFollowUps(w)
}

func (r *Report) writeFollowUps(w io.Writer) error {
	var lines []string
	for _, c := range r.Cells {
		if c.Replay != "" {
			lines = append(lines, fmt.Sprintf("replay %s under %s (%s): %s", c.Pattern, c.Scenario, broke(c), c.Replay))
		}
	}
	for _, c := range r.Cells {
		if c.Runs == 1 {
			lines = append(lines, fmt.Sprintf("one seed: %s under %s judged one run only, which is no rate (more: --seeds N)", c.Pattern, c.Scenario))
		}
	}
	for _, c := range r.Cells {
		if u := unclaimedText(c); u != "" {
			lines = append(lines, u)
		}
	}
	for _, c := range r.Cells {
		lines = append(lines, c.missedLines()...)
	}
	for _, c := range r.Cells {
		if c.Errors > 0 {
			lines = append(lines, fmt.Sprintf("ERROR %s under %s: %d runs did not complete; seed %d: %s\n  %s",
				c.Pattern, c.Scenario, c.Errors, *c.FirstErrorSeed, c.FirstError, c.ReplayCommand(*c.FirstErrorSeed)))
		}
	}
	if len(lines) == 0 {
		return nil
	}
	_, err := fmt.Fprintf(w, "\n%s\n", strings.Join(lines, "\n"))
	return err
}

// broke names the claims (and liveness properties) that some run broke, with counts:
// "mutex 12, progress 3".
func broke(c CellResult) string {
	var names []string
	for name, f := range c.Broke {
		if f.Runs > 0 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "-"
	}
	sort.Strings(names)
	for i, n := range names {
		names[i] = fmt.Sprintf("%s %d", n, c.Broke[n].Runs)
	}
	return strings.Join(names, ", ")
}

func seedRange(s Seeds) string {
	if s.Count == 1 {
		return fmt.Sprint(s.Start)
	}
	return fmt.Sprintf("%d..%d", s.Start, s.Start+uint64(s.Count)-1)
}

func seedOrDash(s *uint64) string {
	if s == nil {
		return "-"
	}
	return fmt.Sprint(*s)
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// unclaimedText says what the oracles found of the claims c's pattern does
// not make: "not claimed fenced under gc-pause: 96 overlaps (mutex is not
// a claim of fenced: not violations, in no rate)"; "" for none.
func unclaimedText(c CellResult) string {
	var counts, claims []string
	for _, claim := range sortedKeys(c.Unclaimed) {
		if n := c.Unclaimed[claim]; n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, findingName(claim)))
			claims = append(claims, claim)
		}
	}
	if len(counts) == 0 {
		return ""
	}
	verb := "is not a claim"
	if len(claims) > 1 {
		verb = "are not claims"
	}
	return fmt.Sprintf("not claimed %s under %s: %s (%s %s of %s: not violations, in no rate)",
		c.Pattern, c.Scenario, strings.Join(counts, ", "), strings.Join(claims, ", "), verb, c.Pattern)
}

// findingName names what a claim's oracle counts: "overlaps" for mutex.
func findingName(claim string) string {
	for _, f := range (&sim.Result{}).ClaimFindings() {
		if f.Claim == claim {
			return f.What
		}
	}
	return "findings of " + claim
}
