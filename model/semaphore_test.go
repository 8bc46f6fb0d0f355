package model

import (
	"testing"

	"github.com/anishathalye/porcupine"
)

func sem(op LockOp, owner string) SemIn { return SemIn{Key: "s", Op: op, Owner: owner} }

func TestSemaphoreModel(t *testing.T) {
	runCases(t, SemaphoreModel(2), []historyCase{
		{"two holders at once", []porcupine.Operation{
			op(1, 0, 10, sem(Acquire, "a"), ok),
			op(2, 1, 11, sem(Acquire, "b"), ok),
			op(1, 20, 30, sem(Release, "a"), ok),
			op(2, 21, 31, sem(Release, "b"), ok),
		}, porcupine.Ok},
		{"a third is refused while two hold", []porcupine.Operation{
			op(1, 0, 10, sem(Acquire, "a"), ok),
			op(2, 1, 11, sem(Acquire, "b"), ok),
			op(3, 12, 13, sem(Acquire, "c"), refused),
			op(3, 40, 41, sem(Acquire, "c2"), ok),
			op(1, 20, 30, sem(Release, "a"), ok),
		}, porcupine.Ok},
		{"three holders at once", []porcupine.Operation{
			op(1, 0, 10, sem(Acquire, "a"), ok),
			op(2, 1, 11, sem(Acquire, "b"), ok),
			op(3, 12, 13, sem(Acquire, "c"), ok),
			op(1, 20, 30, sem(Release, "a"), ok),
		}, porcupine.Illegal},
		{"refused with a permit free", []porcupine.Operation{
			op(1, 0, 10, sem(Acquire, "a"), ok),
			op(2, 12, 13, sem(Acquire, "b"), refused),
		}, porcupine.Illegal},
		{"release by a non-holder", []porcupine.Operation{
			op(1, 0, 10, sem(Acquire, "a"), ok),
			op(2, 12, 13, sem(Release, "b"), ok),
		}, porcupine.Illegal},
		{"a lost release may have freed the permit", []porcupine.Operation{
			op(1, 0, 10, sem(Acquire, "a"), ok),
			op(2, 1, 11, sem(Acquire, "b"), ok),
			op(1, 20, end, sem(Release, "a"), lockUnk),
			op(3, 30, 31, sem(Acquire, "c"), ok),
		}, porcupine.Ok},
		{"a lost acquire may have taken a permit", []porcupine.Operation{
			op(1, 0, 10, sem(Acquire, "a"), ok),
			op(2, 1, end, sem(Acquire, "b"), lockUnk),
			op(3, 20, 21, sem(Acquire, "c"), refused),
		}, porcupine.Ok},
		{"an unknown acquire does not make room", []porcupine.Operation{
			op(1, 0, 10, sem(Acquire, "a"), ok),
			op(2, 1, 11, sem(Acquire, "b"), ok),
			op(4, 2, end, sem(Acquire, "d"), lockUnk),
			op(3, 20, 21, sem(Acquire, "c"), ok),
		}, porcupine.Illegal},
	})
}

func TestSemaphoreModelOnePermitIsALock(t *testing.T) {
	runCases(t, SemaphoreModel(1), []historyCase{
		{"two holders", []porcupine.Operation{
			op(1, 0, 10, sem(Acquire, "a"), ok),
			op(2, 1, 11, sem(Acquire, "b"), ok),
		}, porcupine.Illegal},
		{"one after the other", []porcupine.Operation{
			op(1, 0, 10, sem(Acquire, "a"), ok),
			op(2, 1, 11, sem(Acquire, "b"), refused),
			op(1, 20, 21, sem(Release, "a"), ok),
			op(2, 22, 23, sem(Acquire, "b"), ok),
		}, porcupine.Ok},
	})
}

func TestOwners(t *testing.T) {
	var o Owners
	o = o.With("b").With("a").With("b")
	if o.Len() != 2 || !o.Has("a") || o.Has("c") || o.String() != "{a, b}" {
		t.Fatalf("set %q: len %d, string %s", string(o), o.Len(), o)
	}
	if p := o.Without("a"); p != Owners("b") || p.Without("b") != "" {
		t.Errorf("without: %q", string(p))
	}
	if Owners("").With("a").With("b") != Owners("").With("b").With("a") {
		t.Error("the same set built in two orders differs")
	}
}

func TestSemaphoreModelRejectsZero(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("SemaphoreModel(0) did not panic")
		}
	}()
	SemaphoreModel(0)
}
