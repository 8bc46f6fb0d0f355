package sim

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/sim/scenario"
)

// The semaphore (N=2) under steady load has two holders at once, and
// never three; judged by pairs it would be flagged on every run.
func TestSemaphoreWithinPermits(t *testing.T) {
	p := lookupPattern(t, "semaphore")
	s := builtin(t, "steady", p)
	s.Duration = 3 * time.Second
	for seed := uint64(1); seed <= 2; seed++ {
		r := run(t, p, s, seed)
		if len(r.Violated) > 0 || r.Safety.Excess > 0 || r.Safety.Overlaps > 0 {
			t.Errorf("seed %d: %s %v", seed, r.Summary(), r.Violations)
		}
		if r.Safety.PeakHolders != 2 {
			t.Errorf("seed %d: peak holders %d, want 2 (the oracle saw no shared holding)", seed, r.Safety.PeakHolders)
		}
		if !slices.Contains(r.Claims, "max-holders") {
			t.Errorf("seed %d: claims %v lack max-holders", seed, r.Claims)
		}
	}
}

// The same semaphore judged against a claim of one holder is caught.
func TestSemaphoreOverClaimFlagged(t *testing.T) {
	p := lookupPattern(t, "semaphore")
	p.Claims.MaxHolders = 1
	s := builtin(t, "steady", p)
	s.Duration = time.Second
	r := run(t, p, s, 1)
	if !slices.Contains(r.Violated, "max-holders") || r.Safety.Excess == 0 {
		t.Fatalf("MaxHolders 1 not flagged: %s", r.Summary())
	}
	if v := r.Violations[0]; v.Kind != "holders" || !strings.Contains(v.Detail, "2 holders, at most 1 allowed") {
		t.Errorf("first violation %+v", v)
	}
}

// staleReadRelease: c1's second acquisition (a read) outlives its TTL in a
// slow step; its careful lease check fails, so it skips its write and
// releases. A reader count without owners takes that release from another
// reader, and a writer gets in beside that reader.
const staleReadRelease = `scenario stale-read-release
summary c1 overruns its read lease, skips its write, then releases its read
start nodes=1 clients=3 ttl=100ms duration=1s
workload work=60ms jitter=10ms think=10ms
pause c2 at=0 for=5ms
pause c3 at=0 for=5ms
slow c1 on=work n=2 for=150ms
`

func TestRWSharedCountCaught(t *testing.T) {
	s, err := scenario.ParseString(staleReadRelease)
	if err != nil {
		t.Fatal(err)
	}
	const seeds = 10
	caught := map[string]int{}
	for _, name := range []string{"rwlock", "rwlock-shared-count"} {
		p := lookupPattern(t, name)
		for seed := uint64(1); seed <= seeds; seed++ {
			r := run(t, p, s, seed)
			if slices.Contains(r.Violated, "mutex") {
				caught[name]++
			}
		}
	}
	if caught["rwlock"] != 0 {
		t.Errorf("rwlock flagged on %d of %d seeds", caught["rwlock"], seeds)
	}
	if caught["rwlock-shared-count"] == 0 {
		t.Errorf("rwlock-shared-count not caught on any of %d seeds", seeds)
	}
	t.Logf("rwlock-shared-count caught on %d of %d seeds", caught["rwlock-shared-count"], seeds)
}

// Readers overlap under steady load, and that is no overlap.
func TestReadersShare(t *testing.T) {
	p := lookupPattern(t, "rwlock")
	s := builtin(t, "steady", p)
	s.Duration = 3 * time.Second
	s.Workload.Work = 3 * s.Workload.Work // long sections: readers meet
	r := run(t, p, s, 1)
	if r.Safety.Overlaps > 0 {
		t.Fatalf("%s %v", r.Summary(), r.Violations)
	}
	if n := sharedReads(t, r); n == 0 {
		t.Error("no two read sections overlapped: the test shows nothing")
	}
}

// sharedReads counts pairs of overlapping read sections of different
// clients in r's history: a client's even-numbered Acquire calls are reads
// (pattern.Alternating), each held from its return to its Release call.
func sharedReads(t *testing.T, r *Result) int {
	t.Helper()
	type span struct {
		client      int
		start, stop int64
	}
	var reads []span
	calls := map[int]int{}
	open := map[int]int{} // client → index in reads of its open read
	for _, op := range r.History.Ops {
		switch op.Kind {
		case "acquire":
			calls[op.Client]++
			if op.OK && !op.Unknown() && calls[op.Client]%2 == 0 {
				reads = append(reads, span{op.Client, op.Return, op.Return})
				open[op.Client] = len(reads)
			}
		case "release":
			if i := open[op.Client]; i > 0 {
				reads[i-1].stop = op.Call
				open[op.Client] = 0
			}
		}
	}
	n := 0
	for i, a := range reads {
		for _, b := range reads[i+1:] {
			if a.client != b.client && a.start < b.stop && b.start < a.stop {
				n++
			}
		}
	}
	return n
}
