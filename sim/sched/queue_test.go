package sched

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQueuePopsInTimeThenSequenceOrder pushes and pops events at random
// (many at the same instant) and holds every pop to the smallest (at, seq)
// still queued, as a sorted reference list has it.
func TestQueuePopsInTimeThenSequenceOrder(t *testing.T) {
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 7))
		var q queue
		var ref []event
		var seq uint64
		for step := range 3000 {
			if len(ref) == 0 || r.IntN(5) < 3 {
				seq++
				e := event{at: int64(r.IntN(40)), seq: seq}
				q.push(e)
				ref = append(ref, e)
				continue
			}
			slices.SortFunc(ref, func(a, b event) int {
				if a.before(&b) {
					return -1
				}
				return 1
			})
			got, want := q.pop(), ref[0]
			ref = ref[1:]
			if got.at != want.at || got.seq != want.seq {
				t.Fatalf("seed %d step %d: pop = (%d, %d), want (%d, %d)", seed, step, got.at, got.seq, want.at, want.seq)
			}
			if len(q) != len(ref) {
				t.Fatalf("seed %d step %d: %d queued, want %d", seed, step, len(q), len(ref))
			}
		}
	}
}

// BenchmarkQueue pushes and pops a queue of about 200 events, as a
// five-node run keeps (timers, replies, timeouts).
func BenchmarkQueue(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var q queue
	var seq uint64
	for range 200 {
		seq++
		q.push(event{at: int64(r.IntN(1e6)), seq: seq})
	}
	for b.Loop() {
		e := q.pop()
		seq++
		q.push(event{at: e.at + int64(r.IntN(1e5)), seq: seq})
	}
}
