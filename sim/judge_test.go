package sim

import (
	"testing"

	"github.com/locksim/locksim/pattern"
)

// TestJudgeCatchesOverlapAndLostUpdate: two holders whose sections cross
// in true time, both writing a value computed from the same read, are an
// overlap and a lost update; the same calls in turn are clean.
func TestJudgeCatchesOverlapAndLostUpdate(t *testing.T) {
	var now int64
	clock := func() int64 { return now }
	mutex := pattern.Claims{Mutex: true}

	j := NewJudge(mutex, []string{"c1", "c2"}, clock)
	now = 10
	a := j.Grant(0, 0, 0, false)
	now = 20
	va := j.Read(0, a, 0)
	now = 30
	b := j.Grant(1, 25, 0, false)
	now = 40
	vb := j.Read(1, b, 0)
	now = 50
	j.Write(0, a, 0, va, va+1)
	now = 60
	j.Write(1, b, 0, vb, vb+1)
	s := j.Safety()
	if s.Overlaps != 1 || s.LostUpdates != 1 {
		t.Fatalf("crossed sections: overlaps %d, lost updates %d; want 1 and 1", s.Overlaps, s.LostUpdates)
	}
	if got := j.Violated(); len(got) != 1 || got[0] != "mutex" {
		t.Errorf("Violated() = %v, want [mutex]", got)
	}

	k := NewJudge(mutex, []string{"c1", "c2"}, clock)
	for i, c := range []int{0, 1} {
		now = int64(100 * (i + 1))
		l := k.Grant(c, now-1, 0, false)
		now += 10
		v := k.Read(c, l, 0)
		now += 10
		k.Check(l, true)
		now += 10
		if !k.Write(c, l, 0, v, v+1) {
			t.Fatalf("write %d refused", i)
		}
	}
	if s := k.Safety(); s.Overlaps != 0 || s.LostUpdates != 0 || s.Counter != 2 || len(k.Violated()) != 0 {
		t.Errorf("sections in turn: %+v, violated %v; want clean with counter 2", s, k.Violated())
	}
}

// TestJudgeFencingRejectsStaleWrite: a fencing store refuses the write of
// an older token once a newer one was seen, and nothing is lost.
func TestJudgeFencingRejectsStaleWrite(t *testing.T) {
	var now int64
	j := NewJudge(pattern.Claims{SafeStore: true, Fencing: true}, []string{"c1", "c2"}, func() int64 { return now })
	now = 1
	a := j.Grant(0, 0, 1, false)
	v := j.Read(0, a, 1)
	now = 5
	b := j.Grant(1, 4, 2, false)
	vb := j.Read(1, b, 2)
	now = 6
	if !j.Write(1, b, 2, vb, vb+1) {
		t.Fatal("the newer token's write was refused")
	}
	now = 7
	if j.Write(0, a, 1, v, v+1) {
		t.Fatal("the stale token's write was accepted")
	}
	if s := j.Safety(); s.StaleRejected != 1 || s.LostUpdates != 0 || len(j.Violated()) != 0 {
		t.Errorf("safety %+v, violated %v; want one stale write rejected and nothing lost", s, j.Violated())
	}
}
