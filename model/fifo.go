package model

import (
	"fmt"
	"strings"

	"github.com/anishathalye/porcupine"
)

// FairOp is an operation on a fair (FIFO) lock's queue.
type FairOp uint8

// The fair lock's operations. Acquire and Release are the lock's own
// calls; FairEnqueue is the instant a waiter joins the queue, which happens
// inside its Acquire (the fair lock's first poll) and is recorded apart.
const (
	FairEnqueue FairOp = iota + 1 // join the queue's tail, with the server's ticket
	FairAcquire                   // Acquire's outcome: granted at the head, or gave up and left
	FairRelease                   // Release
)

func (o FairOp) String() string {
	switch o {
	case FairEnqueue:
		return "enqueue"
	case FairAcquire:
		return "acquire"
	case FairRelease:
		return "release"
	}
	return fmt.Sprintf("FairOp(%d)", uint8(o))
}

// FairIn is one operation on the fair lock Key by Owner (the waiter's
// token). Ticket is the server's ticket of an FairEnqueue (0: not recorded).
type FairIn struct {
	Key    string
	Op     FairOp
	Owner  string
	Ticket int64
}

// FairState is a fair lock's queue (owners in arrival order, one
// comparable string), its holder, and the last ticket issued.
type FairState struct {
	Queue  string
	Holder string
	Last   int64
}

func (s FairState) queue() []string {
	if s.Queue == "" {
		return nil
	}
	return strings.Split(s.Queue, ownersSep)
}

func (s FairState) waiting(owner string) bool {
	for _, q := range s.queue() {
		if q == owner {
			return true
		}
	}
	return false
}

// without returns the queue without owner.
func (s FairState) without(owner string) string {
	var out []string
	for _, q := range s.queue() {
		if q != owner {
			out = append(out, q)
		}
	}
	return strings.Join(out, ownersSep)
}

// FairModel returns the model of first-come, first-served granting for
// runs without faults: a waiter joins the queue's tail when it enqueues
// (tickets, when recorded, strictly increase in queue order); the lock is
// granted only to the head of the queue and only when free; a waiter that
// gives up (a failed Acquire: timeout, cancelled context) leaves the queue
// wherever it is; Release succeeds exactly for the holder. So a waiter
// that enqueued after another can be granted first only if the other gave
// up. Outputs are LockOut. An FairEnqueue or Acquire with an unknown outcome
// takes effect if the state allows it; otherwise an Acquire's waiter
// leaves the queue (the fair lock prunes vanished waiters) and an FairEnqueue
// changes nothing.
func FairModel() porcupine.Model {
	return porcupine.Model{
		Partition:         partitionBy(func(in any) string { return in.(FairIn).Key }),
		Init:              func() any { return FairState{} },
		Step:              func(s, in, out any) (bool, any) { return fairStep(s.(FairState), in.(FairIn), out.(LockOut)) },
		Equal:             func(a, b any) bool { return a == b },
		Hash:              hashFair,
		DescribeOperation: describeFairOp,
		DescribeState:     describeFair,
	}
}

func fairStep(s FairState, in FairIn, out LockOut) (bool, any) {
	next, can := fairEffect(s, in)
	gone := s
	if in.Op == FairAcquire {
		gone.Queue = s.without(in.Owner) // gave up: left the queue
	}
	e := effect[FairState]{next: next, failed: gone, can: can}
	switch in.Op {
	case FairEnqueue:
		e.canFail = false // joining the queue never fails
	case FairAcquire:
		e.canFail = true
	default:
		e.canFail, e.failed = !can, s // a release fails exactly for a non-holder
	}
	return judge(e, out)
}

// fairEffect returns the state after in succeeds and whether it can
// succeed from s.
func fairEffect(s FairState, in FairIn) (FairState, bool) {
	switch in.Op {
	case FairEnqueue:
		fresh := in.Owner != "" && !s.waiting(in.Owner) && s.Holder != in.Owner
		if !fresh || (in.Ticket != 0 && in.Ticket <= s.Last) {
			return s, false
		}
		q := s.queue()
		return FairState{Queue: strings.Join(append(q, in.Owner), ownersSep), Holder: s.Holder, Last: max(s.Last, in.Ticket)}, true
	case FairAcquire:
		q := s.queue()
		if s.Holder != "" || len(q) == 0 || q[0] != in.Owner {
			return s, false
		}
		return FairState{Queue: strings.Join(q[1:], ownersSep), Holder: in.Owner, Last: s.Last}, true
	case FairRelease:
		if s.Holder == "" || s.Holder != in.Owner {
			return s, false
		}
		return FairState{Queue: s.Queue, Last: s.Last}, true
	}
	return s, false
}

func hashFair(state any) uint64 {
	s := state.(FairState)
	return hashString(s.Queue) ^ mix(hashString(s.Holder)) ^ mix(uint64(s.Last)+1)
}

func describeFairOp(input, output any) string {
	in, out := input.(FairIn), output.(LockOut)
	call := fmt.Sprintf("%s(%s)", in.Op, short(in.Owner))
	if in.Op == FairEnqueue && in.Ticket != 0 {
		call = fmt.Sprintf("%s(%s, ticket %d)", in.Op, short(in.Owner), in.Ticket)
	}
	if in.Op == FairAcquire && !out.OK && !out.Unknown {
		return call + " → gave up"
	}
	return describeOutcome(call, out)
}

func describeFair(state any) string {
	s := state.(FairState)
	q := s.queue()
	for i, x := range q {
		q[i] = short(x)
	}
	holder := "free"
	if s.Holder != "" {
		holder = "held by " + short(s.Holder)
	}
	return fmt.Sprintf("%s; queue [%s]", holder, strings.Join(q, ", "))
}
