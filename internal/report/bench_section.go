package report

import (
	"fmt"
	"path"
	"slices"

	"github.com/locksim/locksim/bench"
)

func benchSection(d *Document, b *Bench, opt Options) {
	d.heading(2, "benchmark", "Benchmark: throughput and latency")
	if b == nil {
		d.para(text("No benchmark data: "), code("locksim bench"), text(" measures the patterns against a real redis-server and writes reports/bench; "),
			code("locksim report"), text(" then includes it."))
		return
	}
	d.para(text("From the latest benchmark run (%s, %s; the benchmark's own date: %s). ", path.Join(opt.BenchLink, b.File), b.label(), b.date()),
		text("Throughput is completed acquire+release cycles per second, the median over the benchmark's repetitions with their range in brackets; latencies are in ms over every cycle of every repetition. "),
		text("%s ", benchCaveat(b)),
		text("The benchmark's own summary: "), link(path.Join(opt.BenchLink, bench.FileSummary), path.Join(opt.BenchLink, bench.FileSummary)), text("."))
	for _, k := range keyModes(b) {
		if t, ok := throughputTable(b, k); ok {
			d.para(bold("One node, %s: cycles per second by clients.", keyText(k)))
			d.add(t)
		}
		if t, ok := latencyTable(b, k); ok {
			d.add(t)
		}
	}
	if t, ok := quorumTable(b); ok {
		d.para(bold("Quorum family (Redlock and its references) by node count, at the lowest client count."))
		d.add(t)
	}
	for _, p := range b.Plots {
		d.add(Image{Src: path.Join(opt.BenchLink, p), Alt: "benchmark: " + p})
	}
}

func keyText(k bench.KeyMode) string {
	if k == bench.Hot {
		return "one hot key"
	}
	return "a key per client"
}

func keyModes(b *Bench) []bench.KeyMode {
	var out []bench.KeyMode
	for _, r := range b.Rows {
		if !slices.Contains(out, r.Keys) {
			out = append(out, r.Keys)
		}
	}
	return out
}

// subjects returns the distinct subjects and client counts of rows, in
// file order and ascending.
func subjects(rows []bench.Row) (names []string, clients []int) {
	for _, r := range rows {
		if !slices.Contains(names, r.Subject) {
			names = append(names, r.Subject)
		}
		if !slices.Contains(clients, r.Clients) {
			clients = append(clients, r.Clients)
		}
	}
	slices.Sort(clients)
	return names, clients
}

func throughputTable(b *Bench, k bench.KeyMode) (Table, bool) {
	names, clients := subjects(b.rows(bench.Single, k))
	if len(names) == 0 {
		return Table{}, false
	}
	t := Table{Header: []string{"subject"}}
	for _, c := range clients {
		t.Header = append(t.Header, clientsText(c))
	}
	for _, n := range names {
		r := []TCell{plain("%s", n)}
		for _, c := range clients {
			row, ok := b.find(bench.Single, n, c, k)
			r = append(r, plain("%s", orDash(ok, throughputText(row))))
		}
		t.Rows = append(t.Rows, r)
	}
	return t, true
}

// latencyTable shows the latencies at the highest client count.
func latencyTable(b *Bench, k bench.KeyMode) (Table, bool) {
	names, clients := subjects(b.rows(bench.Single, k))
	if len(names) == 0 {
		return Table{}, false
	}
	top := clients[len(clients)-1]
	t := Table{Header: []string{fmt.Sprintf("subject (%d clients, %s)", top, keyText(k)), "cycles/s (median)", "× floor: median of paired ratios [its confidence interval]",
		"cycle p50 (ms)", "cycle p99 (ms)", "cycle p99.9 (ms)", "acquire p99 (ms)"}}
	for _, n := range names {
		r, ok := b.find(bench.Single, n, top, k)
		if !ok {
			continue
		}
		t.Rows = append(t.Rows, []TCell{plain("%s", n), plain("%.0f", r.CyclesPerSec), plain("%s", ratioText(r)),
			plain("%s", usMS(r.CycleP50)), plain("%s", usMS(r.CycleP99)), plain("%s", usMS(r.CycleP999)), plain("%s", usMS(r.AcquireP99))})
	}
	return t, len(t.Rows) > 0
}

// quorumTable shows the quorum family at its lowest client count and
// first key mode (the benchmark's plots show the rest).
func quorumTable(b *Bench) (Table, bool) {
	t := Table{Header: []string{"subject", "nodes", "clients", "keys", "cycles/s", "× reference", "cycle p99 (ms)"}}
	var rows []bench.Row
	for _, r := range b.Rows {
		if r.Family == bench.Quorum {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return t, false
	}
	_, clients := subjects(rows)
	for _, r := range rows {
		if r.Clients != clients[0] || r.Keys != rows[0].Keys {
			continue
		}
		t.Rows = append(t.Rows, []TCell{plain("%s", r.Subject), plain("%d", r.Nodes), plain("%d", r.Clients), plain("%s", r.Keys),
			plain("%.0f", r.CyclesPerSec), plain("%.2f (%s)", r.RatioReference, r.Reference), plain("%s", usMS(r.CycleP99))})
	}
	return t, len(t.Rows) > 0
}

// throughputText is a row's median throughput and, when recorded, the
// range of its repetitions: "10805 (10012–11675)".
func throughputText(r bench.Row) string {
	if sp := spread(r); sp.Hi < 1e300 {
		return fmt.Sprintf("%.0f (%.0f–%.0f)", r.CyclesPerSec, sp.Lo, sp.Hi)
	}
	return fmt.Sprintf("%.0f", r.CyclesPerSec)
}

func clientsText(n int) string {
	if n == 1 {
		return "1 client"
	}
	return fmt.Sprintf("%d clients", n)
}

func usMS(us float64) string { return fmt.Sprintf("%.3f", us/1000) }

func orDash(ok bool, s string) string {
	if !ok {
		return "–"
	}
	return s
}

// ratioText is a row's ratio to the floor with its confidence interval
// (CILevel, at least bench.ConfidenceLevel, else printed): "0.92
// [0.85–1.01]", "0.92 [0.80–1.10, 88%]". It is the median of per-repetition ratios, each paired
// with the floor's run of the same repetition, so it need not equal the
// ratio of the two cycles/s medians beside it.
func ratioText(r bench.Row) string {
	if r.Family != bench.Single || r.RatioReferenceHi == 0 {
		return fmt.Sprintf("%.2f", r.RatioFloor)
	}
	if r.CILevel < bench.ConfidenceLevel {
		return fmt.Sprintf("%.2f [%.2f–%.2f, %.0f%%]", r.RatioFloor, r.RatioReferenceLo, r.RatioReferenceHi, 100*r.CILevel)
	}
	return fmt.Sprintf("%.2f [%.2f–%.2f]", r.RatioFloor, r.RatioReferenceLo, r.RatioReferenceHi)
}
