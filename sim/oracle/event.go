package oracle

import (
	"strconv"
	"time"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/sim/vclock"
)

// Kind says what an Event reports.
type Kind uint8

const (
	// Wanting: Client calls Acquire.
	Wanting Kind = iota + 1
	// Granted: Acquire, called at Call, returned Held to Client now; the
	// holding is numbered Lease (from 0, in grant order), with fencing
	// token Fence (0: none), a shared (read) lease when Shared.
	Granted
	// Refused: Acquire, called at Call, returned Err to Client now (or
	// the run stopped under it); the client goes on wanting the lock.
	Refused
	// Acting: Client relies on holding Lease now: What is "check" (the
	// careful user's lease check passed), "read" or "write" (it sends a
	// request to the store).
	Acting
	// Abandoned: a careful Client skipped its section's write: What is
	// "check" (its lease check failed with Err) or "extend" (its
	// extension was refused).
	Abandoned
	// Read: Client's read of the store, sent at Call under the lease with
	// fencing token Fence, returned Value now, or Err.
	Read
	// Wrote: Client's write of Value, computed from From (read at Since),
	// sent at Call under the lease with fencing token Fence, returned now:
	// Accepted by the store, or not, or Err.
	Wrote
	// StoreRead: the store executes a read by Client under holding Lease.
	StoreRead
	// StoreWrote: the store executes a write by Client under holding
	// Lease of Value, computed from From, over the store's value Over;
	// Stale says the store refused it for a fence below the highest it
	// has seen.
	StoreWrote
	// Releasing: Client calls Release of Held.
	Releasing
	// Released: Client's Release returned Err.
	Released
	// Extended: Client's Extend of Held, by hand, returned Err.
	Extended
	// Misused: Client released Held again, as a misuse the lock must
	// refuse (What: "duplicate", "stale" or "foreign"), and got Err.
	Misused
	// Slowed: Client's workload step took For longer (a slow fault).
	Slowed
	// Ticked: the simulator ran one event; Touched says a node executed a
	// command or a fault struck since the last Ticked.
	Ticked
)

var kindNames = [...]string{Wanting: "wanting", Granted: "granted", Refused: "refused", Acting: "acting", Abandoned: "abandoned",
	Read: "read", Wrote: "wrote", StoreRead: "store-read", StoreWrote: "store-wrote", Releasing: "releasing", Released: "released", Extended: "extended", Misused: "misused", Slowed: "slowed", Ticked: "ticked"}

// String names k as the package documents it: "granted", "store-read".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// An Event is one thing that happened in a run, as the world records it.
// Which fields are set depends on Kind.
type Event struct {
	Kind              Kind
	Client            int // the client concerned (-1 where the reporter does not know)
	Lease             int // the holding's number
	Held              *locks.Lease
	Call, Fence       int64
	Shared            bool
	What              string
	Value, From, Over int64
	Since             int64
	Stale, Accepted   bool
	Touched           bool
	For               time.Duration
	Err               error
}

// An Oracle judges a run from its events, given in order, once each.
type Oracle interface {
	Observe(e Event)
	// End judges what is still open when the run ends at true time at.
	End(at int64)
}

// List is a run's oracles: each event goes to each of them, in order.
type List []Oracle

// Observe hands e to every oracle.
func (l List) Observe(e Event) {
	for _, o := range l {
		o.Observe(e)
	}
}

// End ends every oracle's run.
func (l List) End(at int64) {
	for _, o := range l {
		o.End(at)
	}
}

// View is what the oracles may read of the run they judge, and nothing
// else of it.
type View interface {
	Now() int64                         // true time, in nanoseconds
	Name(c int) string                  // client c's name
	Stopping() bool                     // the run is ending: outcomes are unknown
	Nodes() []Node                      // the Redis nodes, in order
	Paused(c int, from, to int64) int64 // how long client c's process was paused within [from, to]
}

// Node is what the loss-signal oracle peeks at of a Redis node.
type Node interface {
	// PeekMark reports whether token is held at key, and when it expires
	// in the node's milliseconds (0: no TTL).
	PeekMark(key, token string) (expireAt int64, ok bool)
	Clock() *vclock.Clock
}
