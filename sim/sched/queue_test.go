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
			if q.len() != len(ref) {
				t.Fatalf("seed %d step %d: %d queued, want %d", seed, step, q.len(), len(ref))
			}
		}
	}
}

// TestQueueTimersAndNearEvents runs the queue as a scheduler does: time
// moves to each event popped, and each pushes near events (random small
// delays, some at the same instant) and timers of a few fixed delays, the
// series the lanes take; every pop is held to a sorted reference list.
func TestQueueTimersAndNearEvents(t *testing.T) {
	for seed := range uint64(30) {
		r := rand.New(rand.NewPCG(seed, 9))
		var q queue
		var ref []event
		var seq uint64
		push := func(at int64) {
			seq++
			e := event{at: at, seq: seq}
			q.push(e)
			ref = append(ref, e)
		}
		push(0)
		delays := []int64{3000, 700, 100, 2500, 40}
		for step := range 3000 {
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
			now := got.at
			for range r.IntN(2) { // with the timer below, one push per pop on average
				push(now + int64(r.IntN(20)))
			}
			if r.IntN(2) == 0 {
				push(now + delays[r.IntN(len(delays))])
			}
			if q.len() == 0 {
				push(now + 1)
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
