package node

import (
	"testing"

	"github.com/locksim/locksim/sim/sched"
)

// blpop submits a BLPOP and returns where its reply lands.
func blpop(n *Node, args ...string) *[]string {
	var got []string
	n.Submit(append([]string{"BLPOP"}, args...), func(r Reply, closed bool) {
		if closed {
			got = append(got, "closed")
			return
		}
		got = append(got, r.String())
	})
	return &got
}

// TestBLPOPParksUntilAPush: an empty list parks the BLPOP; a script's
// push answers the first parked one (arrival order), the second stays
// parked until its timeout on the node's clock, a non-empty list answers
// at once, and a crash closes what is still parked.
func TestBLPOPParksUntilAPush(t *testing.T) {
	s := sched.New()
	n := newNode(t, s, Config{})
	first, second := blpop(n, "w", "0.050"), blpop(n, "w", "0.050")
	if len(*first)+len(*second) != 0 || n.Blocked() != 2 {
		t.Fatalf("BLPOPs on an empty list answered %v %v (blocked %d), want both parked", *first, *second, n.Blocked())
	}
	at(t, s, 10)
	want(t, "push by a script", exec(n, "EVAL", "return redis.call('RPUSH', KEYS[1], 'x')", "1", "w"), Int(1))
	if len(*first) != 1 || len(*second) != 0 {
		t.Fatalf("after one push: first %v, second %v; want the first answered only", *first, *second)
	}
	want(t, "the pushed element is consumed", exec(n, "LLEN", "w"), Int(0))
	at(t, s, 49)
	if len(*second) != 0 {
		t.Fatalf("second answered %v before its timeout", *second)
	}
	at(t, s, 51)
	if len(*second) != 1 || n.Blocked() != 0 {
		t.Fatalf("second after its timeout = %v (blocked %d), want one nil reply", *second, n.Blocked())
	}
	want(t, "RPUSH", exec(n, "RPUSH", "w", "y"), Int(1))
	if now := blpop(n, "w", "1"); len(*now) != 1 {
		t.Fatalf("BLPOP on a non-empty list = %v, want an answer at once", *now)
	}
	late := blpop(n, "w", "0")
	n.Crash()
	if len(*late) != 1 || (*late)[0] != "closed" {
		t.Fatalf("parked BLPOP after a crash = %v, want its connection closed", *late)
	}
	if bad := blpop(n, "w", "-1"); len(*bad) != 1 {
		t.Fatalf("BLPOP with a negative timeout = %v, want an error", *bad)
	}
}
