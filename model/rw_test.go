package model

import (
	"testing"

	"github.com/anishathalye/porcupine"
)

func rw(op LockOp, m Mode, owner string) RWIn { return RWIn{Key: "rw", Op: op, Mode: m, Owner: owner} }

func TestRWModel(t *testing.T) {
	runCases(t, RWModel(), []historyCase{
		{"readers share", []porcupine.Operation{
			op(1, 0, 10, rw(Acquire, Read, "r1"), ok),
			op(2, 1, 11, rw(Acquire, Read, "r2"), ok),
			op(3, 2, 12, rw(Acquire, Write, "w"), refused),
			op(1, 20, 30, rw(Release, Read, "r1"), ok),
			op(2, 21, 31, rw(Release, Read, "r2"), ok),
			op(3, 40, 41, rw(Acquire, Write, "w2"), ok),
		}, porcupine.Ok},
		{"writer beside a reader", []porcupine.Operation{
			op(1, 0, 10, rw(Acquire, Read, "r1"), ok),
			op(3, 12, 13, rw(Acquire, Write, "w"), ok),
		}, porcupine.Illegal},
		{"reader beside a writer", []porcupine.Operation{
			op(3, 0, 10, rw(Acquire, Write, "w"), ok),
			op(1, 12, 13, rw(Acquire, Read, "r1"), ok),
		}, porcupine.Illegal},
		{"two writers", []porcupine.Operation{
			op(1, 0, 10, rw(Acquire, Write, "w1"), ok),
			op(2, 12, 13, rw(Acquire, Write, "w2"), ok),
		}, porcupine.Illegal},
		{"a writer refused on a free lock", []porcupine.Operation{
			op(1, 0, 10, rw(Acquire, Write, "w1"), refused),
		}, porcupine.Illegal},
		{"a reader held off by a waiting writer", []porcupine.Operation{
			op(1, 0, 10, rw(Acquire, Read, "r1"), ok),
			op(2, 12, 13, rw(Acquire, Read, "r2"), refused),
		}, porcupine.Ok},
		// The seed's shared counter: r2 releases a read it does not hold.
		{"a reader releases another's read", []porcupine.Operation{
			op(1, 0, 10, rw(Acquire, Read, "r1"), ok),
			op(2, 12, 13, rw(Release, Read, "r2"), ok),
		}, porcupine.Illegal},
		{"a read released through the write side", []porcupine.Operation{
			op(1, 0, 10, rw(Acquire, Read, "r1"), ok),
			op(1, 12, 13, rw(Release, Write, "r1"), ok),
		}, porcupine.Illegal},
		{"a lost read release may have freed the lock", []porcupine.Operation{
			op(1, 0, 10, rw(Acquire, Read, "r1"), ok),
			op(1, 20, end, rw(Release, Read, "r1"), lockUnk),
			op(2, 30, 31, rw(Acquire, Write, "w"), ok),
		}, porcupine.Ok},
		{"a lost write acquire may hold readers out", []porcupine.Operation{
			op(1, 0, end, rw(Acquire, Write, "w"), lockUnk),
			op(2, 5, 6, rw(Acquire, Read, "r1"), ok),
			op(3, 7, 8, rw(Acquire, Write, "w2"), refused),
		}, porcupine.Ok},
		{"an unknown read release does not free a writer's way while another reads", []porcupine.Operation{
			op(1, 0, 10, rw(Acquire, Read, "r1"), ok),
			op(2, 1, 11, rw(Acquire, Read, "r2"), ok),
			op(1, 20, end, rw(Release, Read, "r1"), lockUnk),
			op(3, 30, 31, rw(Acquire, Write, "w"), ok),
		}, porcupine.Illegal},
	})
}

func TestRWModelDescribes(t *testing.T) {
	m := RWModel()
	if got := m.DescribeOperation(rw(Acquire, Read, "r1"), ok); got != "acquire-read(r1) → ok" {
		t.Errorf("operation: %q", got)
	}
	s := RWState{Readers: Owners("").With("r2").With("r1")}
	if got := m.DescribeState(s); got != "read by {r1, r2}" {
		t.Errorf("state: %q", got)
	}
	if got := m.DescribeState(RWState{Writer: "w"}); got != "written by w" {
		t.Errorf("state: %q", got)
	}
}
