package model

import (
	"testing"

	"github.com/anishathalye/porcupine"
)

func acq(owner string) LockIn { return LockIn{Key: "L", Op: Acquire, Owner: owner} }
func rel(owner string) LockIn { return LockIn{Key: "L", Op: Release, Owner: owner} }
func ext(owner string) LockIn { return LockIn{Key: "L", Op: Extend, Owner: owner} }

var (
	ok      = LockOut{OK: true}
	refused = LockOut{}
	lockUnk = LockOut{Unknown: true}
)

func count(n int) LockOut { return LockOut{OK: true, Count: n} }

func TestLockModel(t *testing.T) {
	runCases(t, LockModel(), []historyCase{
		{"acquire, contend, release, acquire", []porcupine.Operation{
			op(0, 0, 10, acq("a"), count(1)), op(1, 20, 30, acq("b"), refused),
			op(0, 40, 50, rel("a"), ok), op(1, 60, 70, acq("b"), count(1)),
		}, porcupine.Ok},
		{"two holders at once", []porcupine.Operation{
			op(0, 0, 10, acq("a"), ok), op(1, 20, 30, acq("b"), ok),
		}, porcupine.Illegal},
		{"refused while free", []porcupine.Operation{
			op(1, 0, 10, acq("b"), refused),
		}, porcupine.Illegal},
		{"refused with no owner while held", []porcupine.Operation{
			op(0, 0, 10, acq("a"), ok), op(1, 20, 30, acq(""), refused),
		}, porcupine.Ok},
		{"granted with no owner", []porcupine.Operation{
			op(1, 0, 10, acq(""), ok),
		}, porcupine.Illegal},
		{"overlapping acquisitions, one wins", []porcupine.Operation{
			op(0, 0, 30, acq("a"), ok), op(1, 10, 40, acq("b"), refused), op(0, 50, 60, rel("a"), ok),
		}, porcupine.Ok},
		{"reentrant holds and partial release", []porcupine.Operation{
			op(0, 0, 10, acq("a"), count(1)), op(0, 20, 30, acq("a"), count(2)),
			op(0, 40, 50, rel("a"), count(1)), op(1, 60, 70, acq("b"), refused),
			op(0, 80, 90, rel("a"), ok), op(1, 100, 110, acq("b"), count(1)),
		}, porcupine.Ok},
		{"wrong hold count", []porcupine.Operation{
			op(0, 0, 10, acq("a"), count(1)), op(0, 20, 30, acq("a"), count(1)),
		}, porcupine.Illegal},
		{"lock freed before the last release", []porcupine.Operation{
			op(0, 0, 10, acq("a"), ok), op(0, 20, 30, acq("a"), ok),
			op(0, 40, 50, rel("a"), ok), op(1, 60, 70, acq("b"), ok),
		}, porcupine.Illegal},
		{"release by a non-holder succeeds", []porcupine.Operation{
			op(0, 0, 10, acq("a"), ok), op(1, 20, 30, rel("b"), ok),
		}, porcupine.Illegal},
		{"release by a non-holder refused", []porcupine.Operation{
			op(0, 0, 10, acq("a"), ok), op(1, 20, 30, rel("b"), refused), op(0, 40, 50, ext("a"), ok),
		}, porcupine.Ok},
		{"extension by a non-holder succeeds", []porcupine.Operation{
			op(0, 0, 10, acq("a"), ok), op(1, 20, 30, ext("b"), ok),
		}, porcupine.Illegal},
		{"holder's extension refused", []porcupine.Operation{
			op(0, 0, 10, acq("a"), ok), op(0, 20, 30, ext("a"), refused),
		}, porcupine.Illegal},
	})
}

func TestLockModelUnknown(t *testing.T) {
	runCases(t, LockModel(), []historyCase{
		{"unknown acquire not applied", []porcupine.Operation{
			op(0, 0, end, acq("a"), lockUnk), op(1, 20, 30, acq("b"), ok),
		}, porcupine.Ok},
		{"unknown acquire applied", []porcupine.Operation{
			op(0, 0, end, acq("a"), lockUnk), op(1, 20, 30, acq("b"), refused),
		}, porcupine.Ok},
		{"unknown acquire applied, then its owner releases", []porcupine.Operation{
			op(0, 0, end, acq("a"), lockUnk), op(0, 20, 30, rel("a"), ok), op(1, 40, 50, acq("b"), ok),
		}, porcupine.Ok},
		{"unknown acquire cannot be applied twice", []porcupine.Operation{
			op(0, 0, end, acq("a"), lockUnk), op(0, 20, 30, rel("a"), ok), op(1, 40, 50, acq("b"), refused),
		}, porcupine.Illegal},
		{"unknown release applied", []porcupine.Operation{
			op(0, 0, 10, acq("a"), ok), op(0, 20, end, rel("a"), lockUnk), op(1, 40, 50, acq("b"), ok),
		}, porcupine.Ok},
		{"unknown release not applied", []porcupine.Operation{
			op(0, 0, 10, acq("a"), ok), op(0, 20, end, rel("a"), lockUnk), op(1, 40, 50, acq("b"), refused),
		}, porcupine.Ok},
		{"unknown release by a non-holder frees nothing", []porcupine.Operation{
			op(0, 0, 10, acq("a"), ok), op(1, 20, end, rel("b"), lockUnk), op(1, 40, 50, acq("b"), ok),
		}, porcupine.Illegal},
	})
}

func TestLockDescribe(t *testing.T) {
	m := LockModel()
	for _, c := range []struct {
		in   LockIn
		out  LockOut
		want string
	}{
		{acq("a"), count(2), "acquire(a) → ok, count 2"},
		{acq("0123456789abcdef"), refused, "acquire(0123456789…) → refused"},
		{rel("a"), ok, "release(a) → ok"},
		{ext("a"), lockUnk, "extend(a) → ?"},
	} {
		if s := m.DescribeOperation(c.in, c.out); s != c.want {
			t.Errorf("DescribeOperation(%+v, %+v) = %q, want %q", c.in, c.out, s, c.want)
		}
	}
	for _, c := range []struct {
		s    LockState
		want string
	}{{LockState{}, "free"}, {LockState{Owner: "a", Count: 2}, "held by a ×2"}} {
		if s := m.DescribeState(c.s); s != c.want {
			t.Errorf("DescribeState(%+v) = %q, want %q", c.s, s, c.want)
		}
	}
}
