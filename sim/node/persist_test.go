package node

import (
	"testing"

	"github.com/locksim/locksim/sim/sched"
)

// Under an fsync window of 1s a crash loses the writes after the last
// fsync point (a multiple of 1s of true time), and keeps those before it.
func TestRestartSyncedLosesTheLastWindow(t *testing.T) {
	for _, b := range []Backend{BackendNative, BackendMini} {
		t.Run(string(b), func(t *testing.T) {
			s := sched.New()
			n := newNode(t, s, Config{Backend: b})
			n.SetFsync(1e9)
			exec(n, "INCR", "fence")    // t=0: after the point at 0, lost at a crash before 1s
			at(t, s, 1200)              // the point at 1s syncs fence=1
			exec(n, "INCR", "fence")    // fence=2 at 1.2s
			exec(n, "SET", "lock", "a") // at 1.2s
			at(t, s, 1900)
			n.Crash()
			at(t, s, 2500) // the node is down: no fsync point passes for it
			if lost := n.RestartSynced(); lost != 2 {
				t.Errorf("RestartSynced lost %d writes, want 2", lost)
			}
			want(t, "fence after the restart", exec(n, "GET", "fence"), Bulk("1"))
			want(t, "lock after the restart", exec(n, "GET", "lock"), Nil())
			if got := n.Stats().Unsynced; got != 2 {
				t.Errorf("Stats.Unsynced = %d, want 2", got)
			}
		})
	}
}

// A crash after an fsync point with no write since loses nothing.
func TestRestartSyncedAfterAPointKeepsAll(t *testing.T) {
	s := sched.New()
	n := newNode(t, s, Config{})
	n.SetFsync(1e9)
	exec(n, "INCR", "fence")
	at(t, s, 1100)
	n.Crash()
	if lost := n.RestartSynced(); lost != 0 {
		t.Errorf("RestartSynced lost %d writes, want 0", lost)
	}
	want(t, "fence", exec(n, "GET", "fence"), Bulk("1"))
}

// Without SetFsync every write is synced (appendfsync always).
func TestRestartSyncedWithoutWindowKeepsAll(t *testing.T) {
	s := sched.New()
	n := newNode(t, s, Config{})
	exec(n, "INCR", "fence")
	n.Crash()
	if lost := n.RestartSynced(); lost != 0 {
		t.Errorf("RestartSynced lost %d writes, want 0", lost)
	}
	want(t, "fence", exec(n, "GET", "fence"), Bulk("1"))
}

// A replica resynchronises to the restarted primary's synced data set.
func TestRestartSyncedResyncsTheReplica(t *testing.T) {
	s := sched.New()
	n := newNode(t, s, Config{ReplicaDelay: 10e6})
	n.SetFsync(1e9)
	exec(n, "SET", "lock", "a")
	at(t, s, 500) // replicated, not synced
	n.Crash()
	n.RestartSynced()
	if _, err := n.Failover(); err != nil {
		t.Fatal(err)
	}
	want(t, "lock on the promoted replica", exec(n, "GET", "lock"), Nil())
}
