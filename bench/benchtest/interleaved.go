package benchtest

import (
	"context"
	"fmt"
	"io"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/bench"
)

// Block is one block of cycles of one subject in an interleaved round:
// what the client process spent on it, per cycle.
type Block struct {
	CPU    float64 // user + system CPU time of the process, ns per cycle
	Wall   float64 // wall time, ns per cycle
	Allocs float64 // heap allocations per cycle
}

// Interleaved is the outcome of CyclesInterleaved: per subject (in the
// order given), one Block per round.
type Interleaved struct {
	Names  []string
	Rounds [][]Block // Rounds[i][j]: round i, subject Names[j]
}

// Ratio is, for subject j, the per-round ratios of field f of its block
// to the first subject's block of the same round.
func (in Interleaved) Ratio(j int, f func(Block) float64) []float64 {
	out := make([]float64, 0, len(in.Rounds))
	for _, r := range in.Rounds {
		if ref := f(r[0]); ref > 0 {
			out = append(out, f(r[j])/ref)
		}
	}
	return out
}

// Values is, for subject j, field f of its block in every round.
func (in Interleaved) Values(j int, f func(Block) float64) []float64 {
	out := make([]float64, 0, len(in.Rounds))
	for _, r := range in.Rounds {
		out = append(out, f(r[j]))
	}
	return out
}

// Table formats the medians over the rounds, with their 95% intervals:
// CPU per cycle, and CPU and wall time relative to the first subject.
func (in Interleaved) Table() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-18s %18s %28s %28s %10s\n", "subject", "cpu µs/cycle", "cpu ratio to "+in.Names[0], "wall ratio", "allocs")
	cpu := func(b Block) float64 { return b.CPU }
	wall := func(b Block) float64 { return b.Wall }
	allocs := func(b Block) float64 { return b.Allocs }
	for j, name := range in.Names {
		c := bench.MedianInterval(in.Values(j, cpu))
		fmt.Fprintf(&sb, "%-18s %18s %28s %28s %10.1f\n", name,
			fmt.Sprintf("%.1f [%.1f–%.1f]", c.Median/1e3, c.Lo/1e3, c.Hi/1e3),
			bench.MedianInterval(in.Ratio(j, cpu)).String(), bench.MedianInterval(in.Ratio(j, wall)).String(),
			bench.MedianInterval(in.Values(j, allocs)).Median)
	}
	return sb.String()
}

// WriteCSV writes every block as a CSV row (round, subject, cpu_ns,
// wall_ns, allocs, all per cycle), after a header, for analysis across
// runs.
func (in Interleaved) WriteCSV(w io.Writer) error {
	if _, err := fmt.Fprintln(w, "round,subject,cpu_ns,wall_ns,allocs"); err != nil {
		return err
	}
	for i, r := range in.Rounds {
		for j, b := range r {
			if _, err := fmt.Fprintf(w, "%d,%s,%.0f,%.0f,%.2f\n", i, in.Names[j], b.CPU, b.Wall, b.Allocs); err != nil {
				return err
			}
		}
	}
	return nil
}

// CyclesInterleaved measures the uncontended cycles of several subjects
// side by side, one client each over one node of tg: every iteration of
// b.Loop is a round of block cycles of each subject in turn (the order
// rotated each round), with the process's CPU time, the wall time and the
// heap allocations taken around each block. Subjects measured moments
// apart see the same load from other processes, so their per-round ratios
// move far less than their rates do on a shared machine. It reports, per
// subject other than the first, the median ratio of its CPU per cycle to
// the first subject's as the metric "<name>-cpu/ref".
func CyclesInterleaved(b *testing.B, tg *bench.Target, subjects []bench.Subject, block int) Interleaved {
	return CyclesInterleavedOver(b, tg, subjects, 1, block)
}

// CyclesInterleavedOver is CyclesInterleaved with every subject over the
// first nodes nodes of tg (the Redlock fan-outs over 5 servers).
func CyclesInterleavedOver(b *testing.B, tg *bench.Target, subjects []bench.Subject, nodes, block int) Interleaved {
	cycles := make([]func(), len(subjects))
	in := Interleaved{Names: make([]string, len(subjects))}
	for j, s := range subjects {
		in.Names[j] = s.Name
		cycles[j] = cycler(b, tg, s, nodes, "benchtest:interleaved:"+s.Name+":"+b.Name())
		cycles[j]() // load the scripts, fill the pool
	}
	if _, ok := cpuTime(); !ok {
		b.Skip("this platform's process CPU time is not read")
	}
	for b.Loop() {
		round := make([]Block, len(subjects))
		for k := range subjects {
			j := (k + len(in.Rounds)) % len(subjects)
			round[j] = measure(cycles[j], block)
		}
		in.Rounds = append(in.Rounds, round)
	}
	for j := 1; j < len(subjects); j++ {
		r := bench.MedianInterval(in.Ratio(j, func(b Block) float64 { return b.CPU }))
		b.ReportMetric(r.Median, in.Names[j]+"-cpu/ref")
	}
	return in
}

// cycler builds a client's locker of s on key and returns one
// acquire+release of it, failing b on an error.
func cycler(b *testing.B, tg *bench.Target, s bench.Subject, nodes int, key string) func() {
	var rt, retries bench.Counter
	cs, err := tg.Open(nodes, 4, &rt)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { bench.CloseAll(cs) })
	l, err := s.New(bench.Conn{Nodes: cs, TTL: 10 * time.Second, Retries: &retries}, key)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	return func() {
		h, err := l.Acquire(ctx)
		if err != nil {
			b.Fatalf("%s: %v", s.Name, err)
		}
		if err := h.Release(ctx); err != nil {
			b.Fatalf("%s: %v", s.Name, err)
		}
	}
}

// measure runs n cycles and returns what they cost per cycle.
func measure(cycle func(), n int) Block {
	allocs := []metrics.Sample{{Name: "/gc/heap/allocs:objects"}}
	metrics.Read(allocs)
	a0 := allocs[0].Value.Uint64()
	c0, _ := cpuTime()
	t0 := time.Now()
	for range n {
		cycle()
	}
	wall := time.Since(t0)
	c1, _ := cpuTime()
	metrics.Read(allocs)
	per := float64(n)
	return Block{CPU: float64(c1-c0) / per, Wall: float64(wall) / per, Allocs: float64(allocs[0].Value.Uint64()-a0) / per}
}
