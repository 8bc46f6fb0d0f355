package linearizability

import (
	"fmt"
	"math"

	"github.com/anishathalye/porcupine"
	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/model"
)

// Models selects which models a check uses.
type Models uint8

// The models.
const (
	Counter  Models = 1 << iota // section ops: model.CounterModel
	Register                    // read and write ops: model.RegisterModel
	Lock                        // acquire, release, extend: model.LockModel (runs where no lease expires)

	// DefaultModels are the models valid for every history, faults included.
	DefaultModels = Counter | Register
	// AllModels adds the lock API, for runs in which no lease expires.
	AllModels = Counter | Register | Lock
)

// modelOf returns the model an op kind is checked against.
func modelOf(kind string) Models {
	switch kind {
	case history.Section:
		return Counter
	case history.Read, history.Write:
		return Register
	case history.Acquire, history.Release, history.Extend:
		return Lock
	}
	return 0
}

// End is the time at which ops with an unknown outcome return: one
// nanosecond after every call, return and event of h.
func End(h *history.History) int64 {
	var end int64
	for _, o := range h.Ops {
		end = max(end, o.Call)
		if !o.Unknown() {
			end = max(end, o.Return)
		}
	}
	for _, e := range h.Events {
		end = max(end, e.At, e.End)
	}
	if end == math.MaxInt64 {
		return end
	}
	return end + 1
}

// Operations converts the ops of h that the selected models check into
// porcupine operations for model.AllModel. Each operation's Metadata is the
// index of its op in h.Ops; an op with an unknown outcome returns at End(h).
// It reports how many ops it skipped (kinds of models not selected).
func Operations(h *history.History, models Models) (ops []porcupine.Operation, skipped int, err error) {
	if err := h.Validate(); err != nil {
		return nil, 0, err
	}
	end := End(h)
	for i, o := range h.Ops {
		if modelOf(o.Kind)&models == 0 {
			skipped++
			continue
		}
		in, out, err := convert(o)
		if err != nil {
			return nil, 0, fmt.Errorf("linearizability: ops[%d] (%s by client %d): %w", i, o.Kind, o.Client, err)
		}
		ret := o.Return
		if o.Unknown() {
			ret = end
		}
		ops = append(ops, porcupine.Operation{ClientId: o.Client, Input: in, Call: o.Call, Output: out, Return: ret, Metadata: i})
	}
	return ops, skipped, nil
}

func convert(o history.Op) (in, out any, err error) {
	if o.Client < 0 {
		return nil, nil, fmt.Errorf("client %d must not be negative", o.Client)
	}
	unknown := o.Unknown()
	switch o.Kind {
	case history.Section:
		return model.SectionIn{Key: o.Key, Fence: o.Fence}, model.SectionOut{Read: o.Value, Wrote: o.OK, Unknown: unknown}, nil
	case history.Read:
		in := model.RegisterIn{Key: o.Key, Fence: o.Fence}
		if !o.OK && !unknown {
			in.Fence = 0 // a read refused before it reached the store raised no token
		}
		return in, model.RegisterOut{Value: o.Value, Unknown: unknown || !o.OK}, nil
	case history.Write:
		return model.RegisterIn{Key: o.Key, Write: true, Fence: o.Fence, Value: o.Value}, model.RegisterOut{OK: o.OK, Unknown: unknown}, nil
	}
	return convertLock(o)
}

func convertLock(o history.Op) (in, out any, err error) {
	op := map[string]model.LockOp{history.Acquire: model.Acquire, history.Release: model.Release, history.Extend: model.Extend}[o.Kind]
	if op == 0 {
		return nil, nil, fmt.Errorf("kind %q has no model", o.Kind)
	}
	if o.Token == "" && (o.OK || op != model.Acquire) && !o.Unknown() {
		return nil, nil, fmt.Errorf("token is empty: a successful acquire, and every release and extend, must name its owner")
	}
	if o.Count < 0 {
		return nil, nil, fmt.Errorf("count %d must not be negative", o.Count)
	}
	return model.LockIn{Key: o.Key, Op: op, Owner: o.Token}, model.LockOut{OK: o.OK, Count: o.Count, Unknown: o.Unknown()}, nil
}
