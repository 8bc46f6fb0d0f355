package model

import (
	"testing"

	"github.com/anishathalye/porcupine"
	"github.com/google/go-cmp/cmp"
)

func TestAllModel(t *testing.T) {
	legal := []porcupine.Operation{
		op(0, 0, 10, acq("a"), ok), op(0, 11, 20, sec, wrote(0)), op(0, 21, 25, write(1, 1), accepted),
		op(0, 26, 30, rel("a"), ok), op(1, 31, 40, acq("b"), ok), op(1, 41, 50, sec, wrote(1)),
		op(1, 51, 55, read, got(1)), op(1, 56, 60, rel("b"), ok),
	}
	runCases(t, AllModel(), []historyCase{
		{"mixed legal history", legal, porcupine.Ok},
		{"lost update in the counter partition only", append(legal[:len(legal):len(legal)],
			op(2, 70, 80, sec, wrote(1))), porcupine.Illegal},
		{"same key, different models, independent", []porcupine.Operation{
			op(0, 0, 10, LockIn{Key: "x", Op: Acquire, Owner: "a"}, ok),
			op(1, 20, 30, SectionIn{Key: "x"}, wrote(0)),
			op(1, 40, 50, RegisterIn{Key: "x"}, got(0)),
		}, porcupine.Ok},
		{"unknown in every model", []porcupine.Operation{
			op(0, 0, end, acq("a"), lockUnk), op(0, 1, end, sec, secUnknown), op(0, 2, end, write(4, 1), regUnknown),
			op(1, 20, 30, sec, wrote(1)), op(1, 31, 40, read, got(4)), op(1, 41, 50, acq("b"), refused),
		}, porcupine.Ok},
	})
}

func TestPartition(t *testing.T) {
	ops := []porcupine.Operation{
		op(0, 0, 1, SectionIn{Key: "b"}, wrote(0)),
		op(0, 2, 3, LockIn{Key: "a", Op: Acquire, Owner: "x"}, ok),
		op(0, 4, 5, SectionIn{Key: "a"}, wrote(0)),
		op(0, 6, 7, SectionIn{Key: "b"}, wrote(1)),
		op(0, 8, 9, "not a model input", nil),
		op(0, 10, 11, RegisterIn{Key: "a"}, got(0)),
	}
	var got [][]int64
	var parts []Part
	for _, p := range Partition(ops) {
		var calls []int64
		for _, o := range p {
			calls = append(calls, o.Call)
		}
		got = append(got, calls)
		part, _ := PartitionOf(p[0].Input)
		parts = append(parts, part)
	}
	want := [][]int64{{4}, {0, 6}, {2}, {10}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Partition calls (-want +got):\n%s", d)
	}
	wantParts := []Part{{NameCounter, "a"}, {NameCounter, "b"}, {NameLock, "a"}, {NameRegister, "a"}}
	if d := cmp.Diff(wantParts, parts); d != "" {
		t.Errorf("Partition order (-want +got):\n%s", d)
	}
}

func TestAllModelDescribe(t *testing.T) {
	m := AllModel()
	for _, c := range []struct {
		state any
		want  string
	}{
		{nil, "initial"}, {int64(2), "counter=2"}, {RegisterState{Value: 1, Fence: 2}, "value=1 highest fence=2"},
		{LockState{Owner: "a", Count: 1}, "held by a ×1"},
	} {
		if s := m.DescribeState(c.state); s != c.want {
			t.Errorf("DescribeState(%#v) = %q, want %q", c.state, s, c.want)
		}
	}
	if s := m.DescribeOperation(acq("a"), ok); s != "acquire(a) → ok" {
		t.Errorf("DescribeOperation(acquire) = %q", s)
	}
	for _, s := range []any{int64(3), RegisterState{Value: 3}, LockState{Owner: "a", Count: 3}} {
		if m.Hash(s) == m.Hash(nil) {
			t.Errorf("Hash(%#v) equals the hash of the initial state", s)
		}
	}
}
