package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/locksim/locksim/bench"
)

// The benchmark's throughput is a median over a few repetitions on a
// shared machine. A pattern is called dearer or cheaper than the floor
// only when the spread of its repetitions (cycles_per_sec_min to _max)
// and the floor's do not overlap; inside that spread, the benchmark cannot
// tell them apart, and the report says so instead of naming a winner.

// spread is the range of a row's throughput over its repetitions. A row
// without one (read from a CSV that lacks it) gets an unbounded range:
// without a spread, nothing is separated.
func spread(r bench.Row) Interval {
	if r.CyclesPerSecMin == 0 && r.CyclesPerSecMax == 0 {
		return Interval{Lo: 0, Hi: math.Inf(1)}
	}
	return Interval{Lo: r.CyclesPerSecMin, Hi: r.CyclesPerSecMax}
}

// benchCaveat says how far the benchmark's rates move between its
// repetitions, measured from its own rows: the median, over the rows
// with a range, of half the range over the median rate.
func benchCaveat(b *Bench) string {
	var moves []float64
	for _, r := range b.Rows {
		if r.CyclesPerSec > 0 && r.CyclesPerSecMax > r.CyclesPerSecMin {
			moves = append(moves, (r.CyclesPerSecMax-r.CyclesPerSecMin)/2/r.CyclesPerSec)
		}
	}
	if len(moves) == 0 {
		return "The benchmark recorded no range over repetitions: its rates cannot be told apart (reports/bench/NOTES.md)."
	}
	slices.Sort(moves)
	return fmt.Sprintf("Rates move by ±%.0f%% between repetitions (the median over the benchmark's cells of half a cell's range over its median), so compare within a cell's range; reports/bench/NOTES.md reads the figures.",
		100*moves[len(moves)/2])
}

// adviseCost prices the single-node patterns against the floor (a
// hand-written SET NX PX + Lua release) at the lowest client count and the
// first key mode, separating only what the repetitions' spread separates.
func adviseCost(m *Measurements, b *Bench) List {
	at, floor, ok := costRows(b)
	if !ok {
		return nil
	}
	fs := spread(floor)
	var dearer, tied []string
	for _, r := range at {
		s := fmt.Sprintf("%s %.0f (%.0f–%.0f)", r.Subject, r.CyclesPerSec, spread(r).Lo, spread(r).Hi)
		if spread(r).Below(fs) {
			dearer = append(dearer, s)
		} else {
			tied = append(tied, s)
		}
	}
	s := []Span{text("Cost, from the benchmark (%s, %s; %s, %s; cycles/s, the median and the range of %d repetitions): the floor does %.0f (%.0f–%.0f). ",
		b.label(), b.date(), clientsText(floor.Clients), keyText(floor.Keys), floor.Reps, floor.CyclesPerSec, fs.Lo, fs.Hi)}
	if len(dearer) > 0 {
		s = append(s, text("Measurably dearer (their range lies below the floor's): %s. ", strings.Join(dearer, ", ")))
	}
	if len(tied) > 0 {
		s = append(s, text("Not told apart from the floor (ranges overlap; no winner among them): %s. ", strings.Join(tied, ", ")))
	}
	return List{append(s, text("%s", benchCaveat(b)))}
}

// costRows returns the single-node pattern rows and the floor's at the
// lowest client count and the first key mode.
func costRows(b *Bench) ([]bench.Row, bench.Row, bool) {
	var rows []bench.Row
	var floors []bench.Row
	for _, r := range b.Rows {
		switch {
		case r.Family == bench.Single && r.Kind == bench.KindPattern:
			rows = append(rows, r)
		case r.Family == bench.Single && r.Kind == bench.KindFloor:
			floors = append(floors, r)
		}
	}
	if len(rows) == 0 || len(floors) == 0 {
		return nil, bench.Row{}, false
	}
	_, clients := subjects(rows)
	var at []bench.Row
	for _, r := range rows {
		if r.Clients == clients[0] && r.Keys == rows[0].Keys {
			at = append(at, r)
		}
	}
	slices.SortStableFunc(at, func(x, y bench.Row) int { return cmp.Compare(y.CyclesPerSec, x.CyclesPerSec) })
	for _, f := range floors {
		if f.Clients == clients[0] && f.Keys == rows[0].Keys {
			return at, f, true
		}
	}
	return nil, bench.Row{}, false
}

// adviseHotKey prices contention from the benchmark: at the highest client
// count on one hot key, the patterns whose throughput range lies below the
// floor's, with their acquire p99.
func adviseHotKey(b *Bench) List {
	rows := b.rows(bench.Single, bench.Hot)
	if len(rows) == 0 {
		return nil
	}
	_, clients := subjects(rows)
	top := clients[len(clients)-1]
	var floor bench.Row
	for _, r := range rows {
		if r.Clients == top && r.Kind == bench.KindFloor {
			floor = r
		}
	}
	if floor.Reps == 0 {
		return nil
	}
	var slow []string
	for _, r := range rows {
		if r.Clients == top && r.Kind == bench.KindPattern && spread(r).Below(spread(floor)) {
			slow = append(slow, fmt.Sprintf("%s %.0f cycles/s (%.0f–%.0f), acquire p99 %s ms", r.Subject, r.CyclesPerSec, spread(r).Lo, spread(r).Hi, usMS(r.AcquireP99)))
		}
	}
	if len(slow) == 0 {
		return nil
	}
	return List{{text("Under contention (benchmark, %d clients on one hot key, floor %.0f cycles/s (%.0f–%.0f)), measurably slower than the floor: %s. ",
		top, floor.CyclesPerSec, spread(floor).Lo, spread(floor).Hi, strings.Join(slow, "; ")), text("The caveat of the "), link("benchmark's figures", "#benchmark"), text(" applies.")}}
}
