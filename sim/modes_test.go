package sim

import (
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/model"
)

// lockOps turns a run's granted acquisitions and its releases into
// operations of the read-write model (mode from the history) and of the
// semaphore model. Refused and unknown acquisitions are left out: no lease
// came back, so no later operation of the history names their token, and
// an acquisition only adds holders, which can make no later operation
// legal.
func lockOps(h *history.History) (rw, sem []porcupine.Operation) {
	for _, op := range h.Ops {
		var lo model.LockOp
		switch {
		case op.Kind == history.Acquire && op.OK && !op.Unknown():
			lo = model.Acquire
		case op.Kind == history.Release:
			lo = model.Release
		default:
			continue
		}
		out := model.LockOut{OK: op.OK, Unknown: op.Unknown()}
		m := model.Write
		if op.Mode == history.ModeRead {
			m = model.Read
		}
		p := porcupine.Operation{ClientId: op.Client, Call: op.Call, Return: op.Return}
		p.Input, p.Output = model.RWIn{Key: op.Key, Op: lo, Mode: m, Owner: op.Token}, out
		rw = append(rw, p)
		p.Input = model.SemIn{Key: op.Key, Op: lo, Owner: op.Token}
		sem = append(sem, p)
	}
	return rw, sem
}

// The read-write model accepts a fault-free run of rwlock, whose history
// marks its read holdings; read as all writes, the same run is illegal.
func TestRWHistoryFitsRWModel(t *testing.T) {
	p := lookupPattern(t, "rwlock")
	s := builtin(t, "steady", p)
	s.Duration = 2 * time.Second
	s.Workload.Work = 3 * s.Workload.Work // long sections: readers meet
	r := run(t, p, s, 1)
	ops, _ := lockOps(r.History)
	reads := 0
	for _, op := range ops {
		if op.Input.(model.RWIn).Mode == model.Read {
			reads++
		}
	}
	if reads == 0 {
		t.Fatal("no read holding in the history")
	}
	if !porcupine.CheckOperations(model.RWModel(), ops) {
		t.Errorf("rwlock's steady history is not legal for RWModel (%d ops, %d on reads)", len(ops), reads)
	}
	for i := range ops {
		in := ops[i].Input.(model.RWIn)
		in.Mode = model.Write
		ops[i].Input = in
	}
	if porcupine.CheckOperations(model.RWModel(), ops) {
		t.Error("read as all writes, the overlapping readers are still legal")
	}
}

// The semaphore's fault-free history fits a 2-permit model, not a 1-permit one.
func TestSemaphoreHistoryFitsModel(t *testing.T) {
	p := lookupPattern(t, "semaphore")
	s := builtin(t, "steady", p)
	s.Duration = time.Second
	r := run(t, p, s, 1)
	_, ops := lockOps(r.History)
	if !porcupine.CheckOperations(model.SemaphoreModel(2), ops) {
		t.Errorf("semaphore's steady history (%d ops) is not legal for SemaphoreModel(2)", len(ops))
	}
	if porcupine.CheckOperations(model.SemaphoreModel(1), ops) {
		t.Error("semaphore's steady history is legal for SemaphoreModel(1): it never had two holders")
	}
}
