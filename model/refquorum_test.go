package model

import (
	"testing"
	"time"
)

func TestNewQuorumRejects(t *testing.T) {
	for _, n := range []int{0, 2, -1} {
		if _, err := NewQuorum(n, time.Second); err == nil {
			t.Errorf("NewQuorum(%d) succeeded, want an error", n)
		}
	}
	if _, err := NewQuorum(3, 0); err == nil {
		t.Errorf("NewQuorum(3, 0) succeeded, want a TTL error")
	}
}

func TestQuorum(t *testing.T) {
	q, err := NewQuorum(5, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	q.Down(0)
	q.Down(1)
	if !q.Acquire("a") {
		t.Fatalf("Acquire(a) with 3 of 5 up refused, want granted")
	}
	if owner, ok := q.Holder(); !ok || owner != "a" {
		t.Errorf("Holder() = %q, %v, want a", owner, ok)
	}
	if q.Acquire("b") {
		t.Errorf("Acquire(b) while a holds granted")
	}
	if n := q.Release("a"); n != 3 {
		t.Errorf("Release(a) freed %d nodes, want 3", n)
	}
	q.Down(2)
	if q.Acquire("c") {
		t.Errorf("Acquire(c) with 2 of 5 up granted")
	}
	for i := range q.Size() {
		if owner, n := q.Node(i).Holder(); n != 0 {
			t.Errorf("node %d held by %q after a failed quorum, want released", i, owner)
		}
	}
	if _, ok := q.Holder(); ok {
		t.Errorf("Holder() after a failed quorum reports a holder")
	}
}

func TestQuorumRestartWithoutPersistence(t *testing.T) {
	q, err := NewQuorum(3, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	q.Down(2)
	if !q.Acquire("a") {
		t.Fatalf("Acquire(a) refused")
	}
	q.Restart(0, false) // node 0 forgets a's lock
	q.Up(2)
	if !q.Acquire("b") {
		t.Fatalf("Acquire(b) after node 0 lost its data refused, want granted (nodes 0 and 2)")
	}
	if !q.Node(1).Holds("a") {
		t.Errorf("node 1 no longer holds a's lock")
	}
	// a still holds node 1 only, b holds nodes 0 and 2: a alone believes it
	// holds the lock, which is what restarts without persistence break.
	if owner, ok := q.Holder(); !ok || owner != "b" {
		t.Errorf("Holder() = %q, %v, want b", owner, ok)
	}
}

func TestFencedStore(t *testing.T) {
	checking := &FencedStore{Checking: true}
	plain := &FencedStore{}
	steps := []struct {
		fence, value        int64
		checkingOK, plainOK bool
	}{{2, 1, true, true}, {1, 9, false, true}, {2, 3, true, true}, {5, 4, true, true}, {3, 7, false, true}}
	for _, s := range steps {
		if got := checking.Write(s.fence, s.value); got != s.checkingOK {
			t.Errorf("checking Write(fence %d, %d) = %v, want %v", s.fence, s.value, got, s.checkingOK)
		}
		if got := plain.Write(s.fence, s.value); got != s.plainOK {
			t.Errorf("plain Write(fence %d, %d) = %v, want %v", s.fence, s.value, got, s.plainOK)
		}
	}
	if checking.Read() != 4 || checking.Highest() != 5 {
		t.Errorf("checking store = %d (highest %d), want 4 (highest 5)", checking.Read(), checking.Highest())
	}
	if plain.Read() != 7 {
		t.Errorf("plain store = %d, want the last write, 7", plain.Read())
	}
}
