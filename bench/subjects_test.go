package bench_test

import (
	"fmt"
	"testing"

	"github.com/locksim/locksim/bench"
	"github.com/locksim/locksim/bench/benchtest"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// TestSubjectsExclusive checks that every subject really is a lock: a
// reference that let two holders in would make every ratio to it
// meaningless.
func TestSubjectsExclusive(t *testing.T) {
	tg := benchtest.Target(t, 3)
	for _, s := range bench.Subjects() {
		nodes := 1
		if s.Family == bench.Quorum {
			nodes = 3
		}
		t.Run(fmt.Sprintf("%s/%dn", s.Name, nodes), func(t *testing.T) {
			benchtest.Exclusive(t, tg, s, nodes, 4, 8)
		})
	}
}

// BenchmarkCycle is the per-call cost of one uncontended acquire+release
// of each subject on one client (real redis-server when installed), named
// for benchstat: BenchmarkCycle/target=.../subject=.../nodes=...
func BenchmarkCycle(b *testing.B) {
	tg := benchtest.Target(b, 5)
	target := "redis"
	if tg.Demo {
		target = "miniredis"
	}
	for _, s := range bench.Subjects() {
		nodes := []int{1}
		if s.Family == bench.Quorum {
			nodes = []int{1, 3, 5}
		}
		for _, n := range nodes {
			b.Run(fmt.Sprintf("target=%s/subject=%s/nodes=%d", target, s.Name, n), func(b *testing.B) {
				benchtest.Cycles(b, tg, s, n)
			})
		}
	}
}

// BenchmarkCycleInterleaved measures the floor and every pattern's
// uncontended cycle on one node side by side, in rounds of 200 cycles of
// each (see benchtest.CyclesInterleaved), and logs each one's CPU per
// cycle and its ratio to the floor with 95% intervals: run it with
// -benchtime 30x -v for 30 rounds.
func BenchmarkCycleInterleaved(b *testing.B) {
	tg := benchtest.Target(b, 1)
	subjects := []bench.Subject{bench.FloorSubject()}
	subjects = append(subjects, bench.PatternSubjects()...)
	in := benchtest.CyclesInterleaved(b, tg, subjects, 200)
	b.Logf("%d rounds of 200 cycles:\n%s", len(in.Rounds), in.Table())
}

// BenchmarkCycleQuorumInterleaved measures the hand-written fan-out and
// the Redlock patterns over five nodes side by side, in rounds of 100
// cycles of each, and logs each one's CPU per cycle and its ratio to the
// fan-out with 95% intervals: run it with -benchtime 30x -v for 30 rounds.
func BenchmarkCycleQuorumInterleaved(b *testing.B) {
	const nodes = 5
	tg := benchtest.Target(b, nodes)
	subjects := []bench.Subject{bench.FanOutSubject()}
	for _, s := range bench.PatternSubjects() {
		if s.Family == bench.Quorum {
			subjects = append(subjects, s)
		}
	}
	in := benchtest.CyclesInterleavedOver(b, tg, subjects, nodes, 100)
	b.Logf("%d rounds of 100 cycles over %d nodes:\n%s", len(in.Rounds), nodes, in.Table())
}

// BenchmarkCycleServer is what one redis-server spends on the floor's and
// every single-node pattern's uncontended cycle, one client, b.N cycles a
// subject: the server process's CPU (server-cpu-ns/op, from /proc, in
// 10 ms ticks: run it with -benchtime 10000x or more), the execution time
// of the commands the client sent (server-exec-ns/op, INFO commandstats
// after CONFIG RESETSTAT) and the round trips; -v logs each command's
// calls and µs per cycle. On a machine whose cores the clients share with
// redis-server, server time per cycle costs throughput like client CPU.
func BenchmarkCycleServer(b *testing.B) {
	srv := redistest.Require(b, 1)[0]
	subjects := append([]bench.Subject{bench.FloorSubject()}, bench.PatternSubjects()...)
	for _, s := range subjects {
		if s.Family != bench.Single {
			continue
		}
		b.Run("subject="+s.Name, func(b *testing.B) {
			c := benchtest.ServerCycles(b, srv, s, b.N)
			b.ReportMetric(c.PerCycle(float64(c.CPU.Nanoseconds())), "server-cpu-ns/op")
			b.ReportMetric(c.PerCycle(c.ExecUsec()*1e3), "server-exec-ns/op")
			b.ReportMetric(c.PerCycle(float64(c.RoundTrips)), "roundtrips/op")
			b.Logf("%s", c)
		})
	}
}
