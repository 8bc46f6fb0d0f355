package simcheck

import (
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/linearizability"
	"github.com/locksim/locksim/model"
)

// The simulator's store, as a porcupine model: model.RegisterModel except
// that every request carrying a fencing token raises the highest token the
// store has seen — reads included — and a write with a token below it is
// rejected; a write without a token (0) is always accepted. Written apart
// from the register model (nondeterministic where an outcome is unknown),
// it checks that model on the simulator's histories: the two must agree.

// seenIn is a read or a write with the token it carried.
type seenIn struct {
	Write bool
	Fence int64
	Value int64
}

// seenRegisterModel allows both outcomes of a request whose outcome is
// unknown: it may never have reached the store.
func seenRegisterModel() porcupine.Model {
	nm := &porcupine.NondeterministicModel{
		Init: func() []any { return []any{model.RegisterState{}} },
		Step: func(state, input, output any) []any {
			s, in, out := state.(model.RegisterState), input.(seenIn), output.(model.RegisterOut)
			next, accepted := seenStep(s, in)
			switch {
			case out.Unknown:
				return []any{s, next}
			case !in.Write && out.Value != s.Value:
				return nil
			case in.Write && out.OK != accepted:
				return nil
			}
			return []any{next}
		},
		Equal: func(a, b any) bool { return a == b },
	}
	return nm.ToModel()
}

// seenStep is the store's handling of one request that reaches it.
func seenStep(s model.RegisterState, in seenIn) (model.RegisterState, bool) {
	if !in.Write {
		s.Fence = max(s.Fence, in.Fence)
		return s, false
	}
	if in.Fence > 0 && in.Fence < s.Fence {
		return s, false
	}
	return model.RegisterState{Value: in.Value, Fence: max(s.Fence, in.Fence)}, true
}

// checkSeenRegister checks the reads and writes of h (one store) under the
// store's own rule. A read that failed carries no value: its outcome is
// unknown, as for the register model.
func checkSeenRegister(h *history.History, timeout time.Duration) linearizability.Verdict {
	end := linearizability.End(h)
	var ops []porcupine.Operation
	for _, o := range h.Ops {
		if o.Kind != history.Read && o.Kind != history.Write {
			continue
		}
		ret := o.Return
		if o.Unknown() {
			ret = end
		}
		unknown := o.Unknown() || o.Kind == history.Read && !o.OK
		ops = append(ops, porcupine.Operation{ClientId: o.Client, Call: o.Call, Return: ret,
			Input:  seenIn{Write: o.Kind == history.Write, Fence: o.Fence, Value: o.Value},
			Output: model.RegisterOut{OK: o.OK, Value: o.Value, Unknown: unknown}})
	}
	switch porcupine.CheckOperationsTimeout(seenRegisterModel(), ops, timeout) {
	case porcupine.Ok:
		return linearizability.Ok
	case porcupine.Illegal:
		return linearizability.Illegal
	}
	return linearizability.Unknown
}

// TestSeenRegister shows the rule on hand-written histories: a stale write
// rejected after a newer holder's read is legal for the store, and for the
// register model, which raises the highest token on reads as the store
// does (it found this history illegal before it did); a store that
// accepts the stale write is illegal for both.
func TestSeenRegister(t *testing.T) {
	ops := func(staleAccepted bool) *history.History {
		return &history.History{Ops: []history.Op{
			{Client: 2, Kind: history.Read, Key: "k", Call: 10, Return: 20, OK: true, Fence: 2, Value: 0},
			{Client: 1, Kind: history.Write, Key: "k", Call: 30, Return: 40, OK: staleAccepted, Fence: 1, Value: 1},
			{Client: 2, Kind: history.Write, Key: "k", Call: 50, Return: 60, OK: true, Fence: 2, Value: 1},
		}}
	}
	for _, c := range []struct {
		name           string
		h              *history.History
		register, seen linearizability.Verdict
	}{
		{"stale write rejected", ops(false), linearizability.Ok, linearizability.Ok},
		{"stale write accepted", ops(true), linearizability.Illegal, linearizability.Illegal},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := linearizability.Check(c.h, linearizability.Options{Models: linearizability.Register})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != c.register {
				t.Errorf("register model: %s, want %s", rep.Verdict, c.register)
			}
			if got := checkSeenRegister(c.h, time.Second); got != c.seen {
				t.Errorf("store's rule: %s, want %s", got, c.seen)
			}
		})
	}
}
