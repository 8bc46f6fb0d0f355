package model

import (
	"testing"

	"github.com/anishathalye/porcupine"
)

func fair(o FairOp, owner string, ticket int64) FairIn {
	return FairIn{Key: "f", Op: o, Owner: owner, Ticket: ticket}
}

// Client 3 (c) holds the lock from t=0 to t=50 in every case below; a and
// b queue behind it.
func heldByC(rest ...porcupine.Operation) []porcupine.Operation {
	return append([]porcupine.Operation{
		op(3, 0, 1, fair(FairEnqueue, "c", 1), ok),
		op(3, 0, 2, fair(FairAcquire, "c", 0), ok),
		op(3, 50, 51, fair(FairRelease, "c", 0), ok),
	}, rest...)
}

func TestFairModel(t *testing.T) {
	runCases(t, FairModel(), []historyCase{
		{"granted in arrival order", heldByC(
			op(1, 5, 6, fair(FairEnqueue, "a", 2), ok),
			op(2, 10, 11, fair(FairEnqueue, "b", 3), ok),
			op(1, 5, 55, fair(FairAcquire, "a", 0), ok),
			op(1, 60, 61, fair(FairRelease, "a", 0), ok),
			op(2, 10, 65, fair(FairAcquire, "b", 0), ok),
		), porcupine.Ok},
		{"a later arrival granted first", heldByC(
			op(1, 5, 6, fair(FairEnqueue, "a", 2), ok),
			op(2, 10, 11, fair(FairEnqueue, "b", 3), ok),
			op(2, 10, 55, fair(FairAcquire, "b", 0), ok),
			op(2, 60, 61, fair(FairRelease, "b", 0), ok),
			op(1, 5, 65, fair(FairAcquire, "a", 0), ok),
		), porcupine.Illegal},
		{"a later arrival first because the earlier gave up", heldByC(
			op(1, 5, 6, fair(FairEnqueue, "a", 2), ok),
			op(2, 10, 11, fair(FairEnqueue, "b", 3), ok),
			op(1, 5, 40, fair(FairAcquire, "a", 0), refused),
			op(2, 10, 55, fair(FairAcquire, "b", 0), ok),
		), porcupine.Ok},
		{"tickets order concurrent arrivals", heldByC(
			op(1, 5, 20, fair(FairEnqueue, "a", 3), ok),
			op(2, 5, 20, fair(FairEnqueue, "b", 2), ok),
			op(1, 5, 55, fair(FairAcquire, "a", 0), ok),
			op(1, 60, 61, fair(FairRelease, "a", 0), ok),
			op(2, 5, 65, fair(FairAcquire, "b", 0), ok),
		), porcupine.Illegal},
		{"without tickets concurrent arrivals go either way", heldByC(
			op(1, 5, 20, fair(FairEnqueue, "a", 0), ok),
			op(2, 5, 20, fair(FairEnqueue, "b", 0), ok),
			op(1, 5, 55, fair(FairAcquire, "a", 0), ok),
			op(1, 60, 61, fair(FairRelease, "a", 0), ok),
			op(2, 5, 65, fair(FairAcquire, "b", 0), ok),
		), porcupine.Ok},
		{"granted while held", heldByC(
			op(1, 5, 6, fair(FairEnqueue, "a", 2), ok),
			op(1, 5, 30, fair(FairAcquire, "a", 0), ok),
		), porcupine.Illegal},
		{"granted without queueing", []porcupine.Operation{
			op(1, 5, 30, fair(FairAcquire, "a", 0), ok),
		}, porcupine.Illegal},
		{"a waiter whose enqueue was lost may never have queued", heldByC(
			op(1, 5, end, fair(FairEnqueue, "a", 0), lockUnk),
			op(2, 10, 11, fair(FairEnqueue, "b", 3), ok),
			op(2, 10, 55, fair(FairAcquire, "b", 0), ok),
		), porcupine.Ok},
		{"a vanished waiter does not block the queue", heldByC(
			op(1, 5, 6, fair(FairEnqueue, "a", 2), ok),
			op(2, 10, 11, fair(FairEnqueue, "b", 3), ok),
			op(1, 5, end, fair(FairAcquire, "a", 0), lockUnk),
			op(2, 10, 55, fair(FairAcquire, "b", 0), ok),
		), porcupine.Ok},
		{"release by a waiter", heldByC(
			op(1, 5, 6, fair(FairEnqueue, "a", 2), ok),
			op(1, 7, 8, fair(FairRelease, "a", 0), ok),
		), porcupine.Illegal},
		{"a stale ticket", heldByC(
			op(1, 5, 6, fair(FairEnqueue, "a", 1), ok),
		), porcupine.Illegal},
	})
}

func TestFairModelDescribes(t *testing.T) {
	m := FairModel()
	if got := m.DescribeOperation(fair(FairEnqueue, "a", 4), ok); got != "enqueue(a, ticket 4) → ok" {
		t.Errorf("operation: %q", got)
	}
	if got := m.DescribeOperation(fair(FairAcquire, "a", 0), refused); got != "acquire(a) → gave up" {
		t.Errorf("operation: %q", got)
	}
	s := FairState{Queue: "a" + ownersSep + "b", Holder: "c", Last: 3}
	if got := m.DescribeState(s); got != "held by c; queue [a, b]" {
		t.Errorf("state: %q", got)
	}
}
