package node

import (
	"testing"
	"time"

	"github.com/locksim/locksim/sim/sched"
)

// answer records when a parked WAIT was answered, and with what.
type answer struct {
	at    int64 // ms of true time; -1 while unanswered
	reply Reply
}

func waitFor(s *sched.Sched, n *Node, off int64, want int, timeout time.Duration) *answer {
	a := &answer{at: -1}
	n.Wait(off, want, timeout, func(r Reply) { a.at, a.reply = s.Now()/1e6, r })
	return a
}

// WAIT blocks until the replica has applied the connection's last write
// (100ms of lag), or answers the count so far at its timeout; a WAIT for
// a write already applied, or for 0 replicas, answers at once.
func TestWaitBlocksUntilReplicated(t *testing.T) {
	s := sched.New()
	n := newNode(t, s, Config{ReplicaDelay: 100 * time.Millisecond})
	exec(n, "SET", "a", "1")
	off := n.Offset()
	short := waitFor(s, n, off, 1, 50*time.Millisecond)
	long := waitFor(s, n, off, 1, time.Second)
	none := waitFor(s, n, off, 0, time.Second)
	at(t, s, 300)
	for _, tc := range []struct {
		name  string
		got   *answer
		at    int64
		reply Reply
	}{
		{"timeout before the replica has it", short, 50, Int(0)},
		{"replica applies it", long, 100, Int(1)},
		{"0 replicas: at once, the count so far", none, 0, Int(0)},
	} {
		if tc.got.at != tc.at || !tc.got.reply.Equal(tc.reply) {
			t.Errorf("%s: answered at %dms with %v, want at %dms with %v", tc.name, tc.got.at, tc.got.reply, tc.at, tc.reply)
		}
	}
	again := waitFor(s, n, off, 1, time.Second)
	if again.at != 300 || !again.reply.Equal(Int(1)) {
		t.Errorf("WAIT for an applied write: answered at %dms with %v, want at once with 1", again.at, again.reply)
	}
}

// A crash or a failover drops parked WAITs unanswered (their connection
// dies with the primary), and a later timeout does not answer them.
func TestWaitDroppedByCrashAndFailover(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault func(*Node)
	}{
		{"crash", func(n *Node) { n.Crash() }},
		{"failover", func(n *Node) { _, _ = n.Failover() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sched.New()
			n := newNode(t, s, Config{ReplicaDelay: 100 * time.Millisecond})
			exec(n, "SET", "a", "1")
			a := waitFor(s, n, n.Offset(), 1, 50*time.Millisecond)
			at(t, s, 10)
			tc.fault(n)
			at(t, s, 300)
			if a.at != -1 {
				t.Errorf("WAIT answered at %dms with %v after a %s, want no answer", a.at, a.reply, tc.name)
			}
		})
	}
}

// WAIT sent as a plain command is refused, not run by a store.
func TestWaitIsNotAPlainCommand(t *testing.T) {
	s := sched.New()
	n := newNode(t, s, Config{})
	if r := exec(n, "WAIT", "1", "0"); !r.IsError() {
		t.Errorf("Exec(WAIT) = %v, want an error", r)
	}
	if n.Stats().Backend != string(BackendNative) {
		t.Errorf("Exec(WAIT) moved the node to %s", n.Stats().Backend)
	}
}
