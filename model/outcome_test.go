package model

import "testing"

// An unknown outcome is legal whatever the call could do: it may or may
// not have taken effect. A fair enqueue, which never fails, whose reply
// was lost where it could not succeed must not make a history illegal.
func TestJudgeUnknownIsAlwaysLegal(t *testing.T) {
	for _, e := range []effect[int]{
		{next: 1, failed: 0, can: true, canFail: false},
		{next: 1, failed: 0, can: false, canFail: false},
		{next: 1, failed: 0, can: false, canFail: true},
	} {
		ok, s := judge(e, LockOut{Unknown: true})
		want := e.failed
		if e.can {
			want = e.next
		}
		if !ok || s.(int) != want {
			t.Errorf("judge(%+v, unknown) = %v, %v; want true, %v", e, ok, s, want)
		}
	}
}

func TestJudgeKnownOutcomes(t *testing.T) {
	e := effect[int]{next: 1, failed: 0, can: true, canFail: false}
	if ok, s := judge(e, LockOut{OK: true}); !ok || s.(int) != 1 {
		t.Errorf("a success that can happen = %v, %v; want true, 1", ok, s)
	}
	if ok, _ := judge(e, LockOut{}); ok {
		t.Error("a refusal of a call that cannot fail is legal; want illegal")
	}
	e.can = false
	if ok, _ := judge(e, LockOut{OK: true}); ok {
		t.Error("a success of a call that cannot succeed is legal; want illegal")
	}
}
