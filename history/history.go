// Package history is the one format in which locksim records what clients
// did: written by the simulator and by real-Redis runs, read by the
// linearizability checker. Times are nanoseconds of true time (the
// simulator's virtual time, or a monotonic clock in real runs).
package history

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
)

// Kinds of operation.
const (
	Acquire = "acquire" // a lock acquisition attempt; OK when granted
	Release = "release" // a release; OK when the server released it
	Extend  = "extend"  // a manual extension or watchdog renewal; OK when extended
	Read    = "read"    // a read of the protected store; Value is what was read
	Write   = "write"   // a write to the protected store; Value written, OK when accepted
	// Section is one whole critical section on the protected counter:
	// read v, then write v+1 (Value is the value read). Two overlapping
	// holders make a history of sections that is not linearizable.
	Section = "section"
)

// ModeRead is the Mode of an operation on a read (shared) holding.
const ModeRead = "read"

// Unknown is the Return of an operation that never returned (reply lost,
// client crashed, run ended): it may or may not have taken effect.
const Unknown = math.MaxInt64

// Op is one operation, from invocation to response.
type Op struct {
	Client int    `json:"client"`
	Kind   string `json:"kind"`
	Key    string `json:"key"`
	Call   int64  `json:"call"`   // ns, true time
	Return int64  `json:"return"` // ns, true time; Unknown if it never returned
	OK     bool   `json:"ok"`     // the outcome, meaningless when Return is Unknown
	Token  string `json:"token,omitempty"`
	Fence  int64  `json:"fence,omitempty"` // fencing token carried or issued (0 = none)
	Value  int64  `json:"value,omitempty"`
	Count  int    `json:"count,omitempty"` // hold count after a reentrant acquire/release
	// Mode is the side of a read-write lock an acquire or release is on:
	// ModeRead for a shared (read) holding; "" for an exclusive one (a
	// write lease, or any lock without sides).
	Mode string `json:"mode,omitempty"`
	Err  string `json:"err,omitempty"`
}

// Unknown reports whether the op's outcome is unknown.
func (o Op) Unknown() bool { return o.Return == Unknown }

// Event is a fault or other annotation on the timeline (pause start and
// end, clock jump, crash, restart, partition, heal, failover).
type Event struct {
	At     int64  `json:"at"`            // ns, true time
	End    int64  `json:"end,omitempty"` // ns, for events with a duration
	Kind   string `json:"kind"`
	Target string `json:"target"` // "c1", "n2", "n1|n2"...
	Detail string `json:"detail,omitempty"`
}

// History is one run's record.
type History struct {
	Pattern  string  `json:"pattern"`
	Scenario string  `json:"scenario"`
	Seed     uint64  `json:"seed"`
	Source   string  `json:"source"` // "sim", "redis", "miniredis"
	Ops      []Op    `json:"ops"`
	Events   []Event `json:"events,omitempty"`
}

// Encode encodes h as indented JSON.
func (h *History) Encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(h)
}

// Decode decodes a history and validates it.
func Decode(r io.Reader) (*History, error) {
	var h History
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("history: decode: %w", err)
	}
	return &h, h.Validate()
}

// Validate checks the invariants a checker relies on.
func (h *History) Validate() error {
	for i, o := range h.Ops {
		switch o.Kind {
		case Acquire, Release, Extend, Read, Write, Section:
		default:
			return fmt.Errorf("history: ops[%d]: unknown kind %q", i, o.Kind)
		}
		if o.Return < o.Call {
			return fmt.Errorf("history: ops[%d] (%s by client %d): return %d before call %d", i, o.Kind, o.Client, o.Return, o.Call)
		}
	}
	return nil
}
