package locks

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors, checked with errors.Is.
var (
	// ErrNotAcquired: the lock is held by someone else and the retry
	// budget (or the context) ran out.
	ErrNotAcquired = errors.New("locks: lock not acquired")
	// ErrNotHeld: a release or extension named a lease that does not hold
	// the lock any more (it expired, or it never did).
	ErrNotHeld = errors.New("locks: lock not held")
	// ErrLockLost: the holder lost the lock while it believed it held it
	// (renewal refused, or validity ran out before renewal succeeded).
	ErrLockLost = errors.New("locks: lock lost")
	// ErrQuorum: Redlock could not lock a majority of its nodes within the
	// validity window.
	ErrQuorum = errors.New("locks: quorum not reached")
	// ErrReleased: the lease was released by its holder.
	ErrReleased = errors.New("locks: lease released")
)

// KeyError wraps an error with the lock key it concerns.
type KeyError struct {
	Key string
	Op  string // "acquire", "release", "extend", "renew"
	Err error
}

func (e *KeyError) Error() string { return fmt.Sprintf("%s %q: %v", e.Op, e.Key, e.Err) }

// Unwrap returns the wrapped error.
func (e *KeyError) Unwrap() error { return e.Err }

func wrap(op, key string, err error) error {
	if err == nil {
		return nil
	}
	return &KeyError{Key: key, Op: op, Err: err}
}

// NodeError is the failure of one Redlock node.
type NodeError struct {
	Node int // index into the Redlock's node list
	Err  error
}

func (e *NodeError) Error() string { return fmt.Sprintf("node %d: %v", e.Node, e.Err) }

// Unwrap returns the node's error.
func (e *NodeError) Unwrap() error { return e.Err }

// QuorumError reports a Redlock attempt that did not reach a majority, or
// reached it too late to leave any validity. It matches ErrQuorum.
type QuorumError struct {
	Locked  int          // nodes that granted the lock
	Needed  int          // the quorum
	Nodes   []*NodeError // nodes that failed with an error (not simply "taken")
	Expired bool         // quorum reached but validity was not positive
}

func (e *QuorumError) Error() string {
	var b strings.Builder
	if e.Expired {
		fmt.Fprintf(&b, "quorum reached (%d/%d) but no validity left", e.Locked, e.Needed)
	} else {
		fmt.Fprintf(&b, "quorum not reached: %d of %d needed", e.Locked, e.Needed)
	}
	for _, n := range e.Nodes {
		b.WriteString("; ")
		b.WriteString(n.Error())
	}
	return b.String()
}

// Is makes errors.Is(err, ErrQuorum) true.
func (e *QuorumError) Is(target error) bool { return target == ErrQuorum }

// Unwrap returns the node errors, so errors.As finds a *NodeError.
func (e *QuorumError) Unwrap() []error {
	out := make([]error, len(e.Nodes))
	for i, n := range e.Nodes {
		out[i] = n
	}
	return out
}

// OptionError names an invalid option and its value.
type OptionError struct {
	Field string
	Value any
	Rule  string // e.g. "must be positive"
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("locks: %s (%v) %s", e.Field, e.Value, e.Rule)
}
