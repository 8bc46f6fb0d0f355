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
	// validity window because enough of them were taken by others (or the
	// majority came too late to leave any validity).
	ErrQuorum = errors.New("locks: quorum not reached")
	// ErrUnavailable: Redlock missed its quorum because nodes did not
	// answer (down, unreachable, timed out, or failing): not because the
	// lock is taken. QuorumError.Nodes says which and why.
	ErrUnavailable = errors.New("locks: nodes unavailable")
	// ErrPermanent marks a Redis error that retrying cannot cure: WRONGTYPE
	// (the key holds another type), NOPERM (ACL), NOAUTH/WRONGPASS, an
	// unknown command, MOVED/ASK on a client that does not follow them,
	// CROSSSLOT, a script touching a key of another cluster node, a
	// counter that is not an integer. Acquire ends at once with it; the
	// Redis error stays in the chain (errors.As with redis.Error). A
	// Semaphore's ErrPermitsMismatch matches it too: no retry cures it.
	ErrPermanent = errors.New("locks: permanent Redis error")
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
	return &KeyError{Key: key, Op: op, Err: classify(err)}
}

// classify marks a permanent Redis error with ErrPermanent (once).
func classify(err error) error {
	if isPermanent(err) && !errors.Is(err, ErrPermanent) {
		return fmt.Errorf("%w: %w", ErrPermanent, err)
	}
	return err
}

// permanentPrefixes are the error codes of Redis replies that no retry
// cures. Everything else — LOADING, BUSY, TRYAGAIN, CLUSTERDOWN,
// MASTERDOWN, READONLY (a failover in progress), timeouts, refused
// connections — is transient.
var permanentPrefixes = []string{"WRONGTYPE", "NOPERM", "NOAUTH", "WRONGPASS", "MOVED", "ASK", "CROSSSLOT"}

// permanentMessages are ERR replies that no retry cures.
var permanentMessages = []string{
	"ERR unknown command", "ERR Script attempted to access a non local key",
	"ERR value is not an integer", "ERR hash value is not an integer",
	"ERR Error running script", // a script error (Redis < 7 wording)
}

// isPermanent reports whether err carries a Redis error reply (as opposed
// to a network or context error) that no retry cures.
func isPermanent(err error) bool {
	var re interface {
		error
		RedisError()
	}
	if !errors.As(err, &re) {
		return false
	}
	msg := re.Error()
	if _, inner, ok := strings.Cut(msg, ": -"); ok && strings.HasPrefix(msg, "ERR Error running script") {
		msg = inner // Redis < 7 wraps a failed redis.call's reply: judge that reply
	}
	code, _, _ := strings.Cut(msg, " ")
	for _, p := range permanentPrefixes {
		if code == p {
			return true
		}
	}
	for _, m := range permanentMessages {
		if strings.HasPrefix(msg, m) {
			return true
		}
	}
	return false
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
// reached it too late to leave any validity. It matches ErrQuorum when the
// lock was taken — so many nodes answered "taken" that no majority was
// possible — or the majority came too late; otherwise, when nodes that did
// not answer cost the quorum, it matches ErrUnavailable. It also matches
// ErrPermanent when so many nodes failed permanently that no majority is
// possible.
type QuorumError struct {
	Locked  int          // nodes that granted the lock
	Needed  int          // the quorum
	Nodes   []*NodeError // nodes that failed with an error (not simply "taken")
	Expired bool         // quorum reached but validity was not positive
	Taken   int          // nodes that answered that another owner holds the key (an extension: or that the key is gone)
	Total   int          // nodes asked (0: unknown, and the error matches ErrQuorum)
}

// taken reports whether the answers "taken" alone made the quorum
// impossible.
func (e *QuorumError) taken() bool { return e.Expired || e.Taken > e.Total-e.Needed }

func (e *QuorumError) permanent() bool {
	n := 0
	for _, ne := range e.Nodes {
		if errors.Is(ne.Err, ErrPermanent) {
			n++
		}
	}
	return e.Total > 0 && n > e.Total-e.Needed
}

func (e *QuorumError) Error() string {
	var b strings.Builder
	switch {
	case e.Expired:
		fmt.Fprintf(&b, "quorum reached (%d/%d) but no validity left", e.Locked, e.Needed)
	case e.taken():
		fmt.Fprintf(&b, "quorum not reached: %d of %d needed", e.Locked, e.Needed)
	default:
		fmt.Fprintf(&b, "%v: quorum not reached: %d of %d needed, %d taken by others, %d failed", ErrUnavailable, e.Locked, e.Needed, e.Taken, len(e.Nodes))
	}
	for _, n := range e.Nodes {
		b.WriteString("; ")
		b.WriteString(n.Error())
	}
	return b.String()
}

// Is makes errors.Is(err, ErrQuorum) true when the lock was taken (or the
// quorum came too late), errors.Is(err, ErrUnavailable) when unanswered
// nodes cost the quorum, and errors.Is(err, ErrPermanent) when permanent
// node failures make a quorum impossible.
func (e *QuorumError) Is(target error) bool {
	switch target {
	case ErrQuorum:
		return e.taken()
	case ErrUnavailable:
		return !e.taken()
	case ErrPermanent:
		return e.permanent()
	}
	return false
}

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
