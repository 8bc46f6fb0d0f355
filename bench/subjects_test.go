package bench_test

import (
	"fmt"
	"testing"

	"github.com/locksim/locksim/bench"
	"github.com/locksim/locksim/bench/benchtest"
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
