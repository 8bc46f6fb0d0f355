package bench

import (
	"cmp"
	"slices"
	"time"
)

// Row is one subject on one cell, over all its repetitions.
type Row struct {
	Family  Family  `json:"family"`
	Subject string  `json:"subject"`
	Kind    Kind    `json:"kind"`
	Nodes   int     `json:"nodes"`
	Clients int     `json:"clients"`
	Keys    KeyMode `json:"keys"`
	Reps    int     `json:"reps"`
	// CyclesPerSec is the median over repetitions of completed
	// acquire+release cycles per second; Min and Max show the spread.
	CyclesPerSec    float64 `json:"cycles_per_sec"`
	CyclesPerSecMin float64 `json:"cycles_per_sec_min"`
	CyclesPerSecMax float64 `json:"cycles_per_sec_max"`
	// CyclesPerSecLo and Hi bound the median's confidence interval (see
	// Interval), whose level is CILevel.
	CyclesPerSecLo float64 `json:"cycles_per_sec_lo"`
	CyclesPerSecHi float64 `json:"cycles_per_sec_hi"`
	CILevel        float64 `json:"ci_level"`
	// FailedPerSec is the median rate of attempts that found the lock taken.
	FailedPerSec float64 `json:"failed_per_sec"`
	// Errors is the total of other failures; FirstError shows one.
	Errors     int64  `json:"errors"`
	FirstError string `json:"first_error,omitempty"`
	// RoundTripsPerCycle is Redis round trips per completed cycle, failed
	// attempts and background renewals included.
	RoundTripsPerCycle float64 `json:"round_trips_per_cycle"`
	// Latency percentiles in microseconds over every cycle of every
	// repetition: the acquire wait (retries included) and the whole cycle.
	AcquireP50  float64 `json:"acquire_p50_us"`
	AcquireP99  float64 `json:"acquire_p99_us"`
	AcquireP999 float64 `json:"acquire_p999_us"`
	CycleP50    float64 `json:"cycle_p50_us"`
	CycleP99    float64 `json:"cycle_p99_us"`
	CycleP999   float64 `json:"cycle_p999_us"`
	// RatioFloor is CyclesPerSec over the floor's on the same clients and
	// keys: the median of per-repetition ratios within the Single family
	// (each paired with the floor run moments apart), the ratio of medians
	// for the Quorum family. Ratios are 0 where the reference completed no
	// cycle.
	RatioFloor float64 `json:"ratio_floor"`
	// Reference is the family's reference (floor, fanout) and
	// RatioReference the median of per-repetition ratios to it.
	Reference      string  `json:"reference"`
	RatioReference float64 `json:"ratio_reference"`
	// RatioReferenceLo and Hi bound its confidence interval (level CILevel).
	RatioReferenceLo float64 `json:"ratio_reference_lo"`
	RatioReferenceHi float64 `json:"ratio_reference_hi"`
}

type rowKey struct {
	cell    Cell
	subject string
}

// aggregate turns samples into rows, in a stable order: family, nodes,
// keys, clients, then the reference, patterns and libraries by name.
func aggregate(samples []Sample) []Row {
	groups := map[rowKey][]Sample{}
	var keys []rowKey
	for _, s := range samples {
		k := rowKey{s.Cell, s.Subject}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], s)
	}
	rows := make([]Row, 0, len(keys))
	for _, k := range keys {
		rows = append(rows, summarise(groups[k]))
	}
	for i := range rows {
		addRatios(&rows[i], groups)
	}
	slices.SortStableFunc(rows, compareRows)
	return rows
}

func compareRows(a, b Row) int {
	return cmp.Or(
		cmp.Compare(familyRank(a.Family), familyRank(b.Family)),
		cmp.Compare(a.Nodes, b.Nodes),
		cmp.Compare(keysRank(a.Keys), keysRank(b.Keys)),
		cmp.Compare(a.Clients, b.Clients),
		cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)),
		cmp.Compare(a.Subject, b.Subject),
	)
}

func familyRank(f Family) int { return map[Family]int{Single: 0, Quorum: 1}[f] }
func keysRank(k KeyMode) int  { return map[KeyMode]int{Distinct: 0, Hot: 1}[k] }
func kindRank(k Kind) int {
	return map[Kind]int{KindFloor: 0, KindReference: 0, KindPattern: 1, KindLibrary: 2}[k]
}

func summarise(ss []Sample) Row {
	s0 := ss[0]
	r := Row{Family: s0.Cell.Family, Subject: s0.Subject, Kind: s0.Kind, Nodes: s0.Cell.Nodes,
		Clients: s0.Cell.Clients, Keys: s0.Cell.Keys, Reps: len(ss), Reference: referenceOf(s0.Cell.Family)}
	var rates, fails []float64
	var acq, cyc Histogram
	var acquired, rts int64
	for _, s := range ss {
		rates = append(rates, s.PerSecond())
		fails = append(fails, float64(s.Failed)/s.Window.Seconds())
		acq.Merge(&s.Acquire)
		cyc.Merge(&s.Cycle)
		acquired += s.Acquired
		rts += s.RoundTrips
		r.Errors += s.Errors
		r.FirstError = cmp.Or(r.FirstError, s.FirstError)
	}
	r.CyclesPerSec, r.FailedPerSec = median(rates), median(fails)
	r.CyclesPerSecMin, r.CyclesPerSecMax = slices.Min(rates), slices.Max(rates)
	iv := MedianInterval(rates)
	r.CyclesPerSecLo, r.CyclesPerSecHi, r.CILevel = iv.Lo, iv.Hi, iv.Level
	if acquired > 0 {
		r.RoundTripsPerCycle = float64(rts) / float64(acquired)
	}
	r.AcquireP50, r.AcquireP99, r.AcquireP999 = percentilesUS(&acq)
	r.CycleP50, r.CycleP99, r.CycleP999 = percentilesUS(&cyc)
	return r
}

func referenceOf(f Family) string {
	if f == Quorum {
		return "fanout"
	}
	return "floor"
}

func percentilesUS(h *Histogram) (p50, p99, p999 float64) {
	us := func(q float64) float64 { return float64(h.Quantile(q)) / float64(time.Microsecond) }
	return us(0.5), us(0.99), us(0.999)
}

// addRatios fills the ratios to the floor and to the family's reference.
func addRatios(r *Row, groups map[rowKey][]Sample) {
	cell := Cell{Family: r.Family, Nodes: r.Nodes, Clients: r.Clients, Keys: r.Keys}
	own := groups[rowKey{cell, r.Subject}]
	iv, _ := pairedInterval(own, groups[rowKey{cell, r.Reference}])
	r.RatioReference, r.RatioReferenceLo, r.RatioReferenceHi = iv.Median, iv.Lo, iv.Hi
	if r.Family == Single {
		r.RatioFloor = r.RatioReference
		return
	}
	floorCell := Cell{Family: Single, Nodes: 1, Clients: r.Clients, Keys: r.Keys}
	if fl := groups[rowKey{floorCell, "floor"}]; len(fl) > 0 {
		r.RatioFloor = ratio(median(rates(own)), median(rates(fl)))
	}
}

// pairedRatio is the median over repetitions of a's rate over b's rate in
// the same repetition; false (and 0) when no repetition has both with b's
// rate positive.
func pairedRatio(a, b []Sample) (float64, bool) {
	iv, ok := pairedInterval(a, b)
	return iv.Median, ok
}

// pairedInterval is pairedRatio with its confidence interval.
func pairedInterval(a, b []Sample) (Interval, bool) {
	rs := pairedValues(a, b, func(x, y Sample) (float64, bool) {
		den := y.PerSecond()
		return x.PerSecond() / den, den > 0
	})
	return MedianInterval(rs), len(rs) > 0
}

// pairedValues applies f to a's and b's samples of the same repetition.
func pairedValues(a, b []Sample, f func(x, y Sample) (float64, bool)) []float64 {
	byRep := map[int]Sample{}
	for _, s := range b {
		byRep[s.Rep] = s
	}
	var out []float64
	for _, s := range a {
		if y, ok := byRep[s.Rep]; ok {
			if v, ok := f(s, y); ok {
				out = append(out, v)
			}
		}
	}
	return out
}

func rates(ss []Sample) []float64 {
	out := make([]float64, len(ss))
	for i := range ss {
		out[i] = ss[i].PerSecond()
	}
	return out
}

func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

// median of xs (the mean of the middle two for an even count); 0 if empty.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
