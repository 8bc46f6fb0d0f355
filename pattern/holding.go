package pattern

import "github.com/locksim/locksim/locks"

// Where a holding lives on a node, for the simulator's loss-signal oracle,
// which watches each holding's state on the nodes to find the instant the
// server let it go.

// Mark is one piece of the state a holding keeps on a node: Key names
// Token (a string equal to it, a hash field or a set or sorted-set member
// that is it), or, with Token empty, Key exists. A holding lives on a node
// while all of its marks are there; it expires there with the first of
// them.
type Mark struct {
	Key, Token string
}

// Where says where lease l lives on each node, for a pattern whose
// Locker was built over the lock key key: Pattern.Holding if it is set,
// else the lease's own Key naming its Token.
func (p Pattern) Where(key string, l *locks.Lease) []Mark {
	if p.Holding != nil {
		return p.Holding(key, l)
	}
	return []Mark{{Key: l.Key, Token: l.Token}}
}

// memberHolding is where a holding of a set of members lives (see
// locks.SemaphoreKeys and locks.RWKeys): its token in the set at the
// lease's Key, and its own expiring key, prefix followed by the token.
func memberHolding(l *locks.Lease, prefix string) []Mark {
	return []Mark{{Key: l.Key, Token: l.Token}, {Key: prefix + l.Token}}
}

// semaphoreHolding: a permit lives in the permits set and at its own key.
func semaphoreHolding(key string, l *locks.Lease) []Mark {
	_, prefix := locks.SemaphoreKeys(key)
	return memberHolding(l, prefix)
}

// rwHolding: a read holding lives in the readers set and at its own key;
// the write holding at the writer key.
func rwHolding(key string, l *locks.Lease) []Mark {
	if !ReadLease(l) {
		return []Mark{{Key: l.Key, Token: l.Token}}
	}
	_, _, _, prefix := locks.RWKeys(key)
	return memberHolding(l, prefix)
}
