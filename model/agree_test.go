package model

import (
	"fmt"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"pgregory.net/rapid"
)

// The porcupine models and the reference models must agree: a sequential
// run of a reference model, recorded as a history, checks Ok, and the same
// history with one recorded outcome falsified checks Illegal.

func sequential(ins, outs []any) []porcupine.Operation {
	ops := make([]porcupine.Operation, len(ins))
	for i := range ins {
		ops[i] = op(i%3, int64(10*i), int64(10*i+5), ins[i], outs[i])
	}
	return ops
}

func checkAgreement(t *rapid.T, m porcupine.Model, ins, outs []any, falsify func(out any) any, last bool) {
	ops := sequential(ins, outs)
	if got := porcupine.CheckOperationsTimeout(m, ops, 0); got != porcupine.Ok {
		t.Fatalf("reference run checks %v, want Ok: %v", got, describeAll(m, ops))
	}
	n := len(ops)
	if !last {
		n-- // the last outcome is not observed by anything after it
	}
	if n <= 0 {
		return
	}
	i := rapid.IntRange(0, n-1).Draw(t, "falsified")
	ops[i].Output = falsify(ops[i].Output)
	if got := porcupine.CheckOperationsTimeout(m, ops, 0); got != porcupine.Illegal {
		t.Fatalf("history with op %d falsified checks %v, want Illegal: %v", i, got, describeAll(m, ops))
	}
}

func describeAll(m porcupine.Model, ops []porcupine.Operation) []string {
	var out []string
	for _, o := range ops {
		out = append(out, m.DescribeOperation(o.Input, o.Output))
	}
	return out
}

func TestLockModelAgreesWithReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ref, err := NewLock(LockSpec{TTL: time.Hour, Reentrant: true})
		if err != nil {
			t.Fatal(err)
		}
		var ins, outs []any
		for range rapid.IntRange(1, 30).Draw(t, "ops") {
			owner := rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "owner")
			in := LockIn{Key: "L", Op: rapid.SampledFrom([]LockOp{Acquire, Release, Extend}).Draw(t, "op"), Owner: owner}
			var out LockOut
			switch in.Op {
			case Acquire:
				g := ref.Acquire(owner)
				out = LockOut{OK: g.OK, Count: g.Count}
			case Release:
				left, ok := ref.Release(owner)
				out = LockOut{OK: ok, Count: left}
			case Extend:
				out = LockOut{OK: ref.Extend(owner)}
			}
			ins, outs = append(ins, in), append(outs, out)
		}
		checkAgreement(t, LockModel(), ins, outs, func(o any) any {
			out := o.(LockOut)
			return LockOut{OK: !out.OK}
		}, true)
	})
}

func TestRegisterModelAgreesWithReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ref := &FencedStore{Checking: true}
		var ins, outs []any
		for i := range rapid.IntRange(1, 30).Draw(t, "ops") {
			if rapid.Bool().Draw(t, "write") {
				fence := rapid.Int64Range(0, 6).Draw(t, "fence")
				ins = append(ins, RegisterIn{Key: "db", Write: true, Fence: fence, Value: int64(i + 1)})
				outs = append(outs, RegisterOut{OK: ref.Write(fence, int64(i+1))})
				continue
			}
			fence := rapid.Int64Range(0, 6).Draw(t, "read fence")
			ins, outs = append(ins, RegisterIn{Key: "db", Fence: fence}), append(outs, RegisterOut{Value: ref.ReadFenced(fence)})
		}
		checkAgreement(t, RegisterModel(), ins, outs, func(o any) any {
			out := o.(RegisterOut)
			return RegisterOut{OK: !out.OK, Value: out.Value + 1000}
		}, true)
	})
}

func TestCounterModelAgreesWithReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ref := &FencedStore{Checking: true}
		var ins, outs []any
		for range rapid.IntRange(1, 30).Draw(t, "sections") {
			fence := rapid.Int64Range(0, 6).Draw(t, "fence")
			v := ref.Read()
			ins = append(ins, SectionIn{Key: "res", Fence: fence})
			outs = append(outs, SectionOut{Read: v, Wrote: ref.Write(fence, v+1)})
		}
		checkAgreement(t, CounterModel(), ins, outs, func(o any) any {
			out := o.(SectionOut)
			return SectionOut{Read: out.Read, Wrote: !out.Wrote}
		}, false)
	})
}

func Example() {
	// Two holders whose critical sections overlap both read 0 and wrote 1:
	// one update was lost, and no order of the two sections explains it.
	ops := []porcupine.Operation{
		{ClientId: 0, Input: SectionIn{Key: "res"}, Call: 0, Output: SectionOut{Read: 0, Wrote: true}, Return: 30},
		{ClientId: 1, Input: SectionIn{Key: "res"}, Call: 10, Output: SectionOut{Read: 0, Wrote: true}, Return: 40},
	}
	fmt.Println(porcupine.CheckOperationsTimeout(CounterModel(), ops, 0))
	// Output: Illegal
}
