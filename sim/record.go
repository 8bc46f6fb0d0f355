package sim

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/network"
	"github.com/locksim/locksim/sim/node"
	"github.com/locksim/locksim/sim/oracle"
	"github.com/locksim/locksim/sim/sched"
)

// record adds op to the history; at MaxOps it stops the run instead
// (ErrCap), so that a run's memory stays bounded whatever its file asks.
func (r *recorder) record(op history.Op) {
	if len(r.hist.Ops) >= maxOps {
		r.s.Fail(fmt.Errorf("%w: its memory cap of %d operations recorded, by t=%s of %v (MaxOps; shorten the duration or use fewer clients)",
			ErrCap, maxOps, fmtT(r.s.Now()), r.end))
		return
	}
	r.hist.Ops = append(r.hist.Ops, op)
}

// unknownOutcome reports whether a failed call may still have taken
// effect: its reply was lost or late, or the run ended under it. A lock
// that reports "not acquired" or a missed quorum (taken, or nodes
// unavailable: Redlock releases on every node then) has given its attempt
// back.
func unknownOutcome(err error) bool {
	var qe *locks.QuorumError
	if err == nil || errors.Is(err, locks.ErrNotAcquired) || errors.As(err, &qe) {
		return false
	}
	var te *network.TimeoutError
	return errors.Is(err, sched.ErrStopped) || errors.As(err, &te) || errors.Is(err, context.DeadlineExceeded)
}

// observe records the watchdog's renewals (the extend scripts), which the
// workload does not see, as Extend ops.
func (r *recorder) observe(rec network.CallRecord) {
	if rec.Endpoint >= len(r.peeks) {
		return
	}
	cmd, ok := rec.Req.(network.Command)
	if !ok || !isExtend(cmd.Args) || scriptMissing(rec) {
		return
	}
	_, argv := scriptArgs(cmd.Args)
	// Under the key the workload's own ops name (Key), not the script's
	// KEYS[1]: a fenced lock renews {name}:lock, and a renewal recorded
	// apart from the acquisitions it extends reads as an extension of a
	// lock nobody holds.
	op := history.Op{Client: rec.Client + 1, Kind: history.Extend, Key: Key, Call: rec.Call, Return: rec.Return}
	if len(argv) > 0 {
		op.Token = argv[0]
	}
	if rec.Err != nil {
		op.Err = rec.Err.Error()
		if unknownOutcome(rec.Err) {
			op.Return = history.Unknown
		}
	} else if reply, ok := rec.Resp.(network.ReplyMsg); ok {
		op.OK = reply.Kind == node.KindInt && reply.Int == 1
	}
	r.record(op)
}

// scriptMissing reports an EVALSHA that met an empty script cache: the
// script did not run, and the client sends the same renewal again as EVAL
// at once, which is the one recorded.
func scriptMissing(rec network.CallRecord) bool {
	r, ok := rec.Resp.(network.ReplyMsg)
	return rec.Err == nil && ok && r.Kind == node.KindError && strings.HasPrefix(r.Str, "NOSCRIPT")
}

func isExtend(args []string) bool {
	if len(args) < 2 || !strings.HasPrefix(node.Upper(args[0]), "EVAL") {
		return false
	}
	sha := args[1]
	if !strings.HasPrefix(node.Upper(args[0]), "EVALSHA") {
		sha = node.SHA1(args[1])
	}
	name := node.ScriptName(sha)
	return name == "extend" || name == "reentrant_extend"
}

// scriptArgs splits EVAL/EVALSHA arguments into KEYS and ARGV.
func scriptArgs(args []string) (keys, argv []string) {
	if len(args) < 3 {
		return nil, nil
	}
	n := 0
	for _, c := range args[2] {
		n = n*10 + int(c-'0')
	}
	if n < 0 || 3+n > len(args) {
		return nil, nil
	}
	return args[3 : 3+n], args[3+n:]
}

// op starts the history op of client call e: it returns now, or never if
// its outcome is unknown (the run stopped, or the reply was lost).
func (r *recorder) op(kind string, e oracle.Event) history.Op {
	op := history.Op{Client: e.Client + 1, Kind: kind, Key: Key, Call: e.Call, Return: r.s.Now()}
	if e.Err != nil {
		op.Err = e.Err.Error()
	}
	if r.s.Stopping() || unknownOutcome(e.Err) {
		op.Return = history.Unknown
	}
	return op
}

// grantOp is the history op of a granted Acquire.
func (r *recorder) grantOp(e oracle.Event) history.Op {
	op := r.op(history.Acquire, e)
	l := e.Held
	op.OK, op.Token, op.Fence, op.Count, op.Mode = true, l.Token, l.Fence, l.Count, mode(l)
	return op
}

// traceGrant traces a grant, after the oracles judged it.
func (r *recorder) traceGrant(e oracle.Event) {
	if r.tr.on() {
		l := e.Held
		r.tr.printf("%s acquired %s fence=%d token=%s after %v", r.names[e.Client], l.Key, l.Fence, l.Token, r.since(e.Call))
	}
}

// refused records an Acquire that returned an error, or that the run's
// end cut short.
func (r *recorder) refused(e oracle.Event) {
	if !r.s.Stopping() {
		r.tr.printf("%s acquire failed after %v: %v", r.names[e.Client], r.since(e.Call), e.Err)
	}
	r.record(r.op(history.Acquire, e))
}

// released records a Release that returned.
func (r *recorder) released(e oracle.Event) {
	op := r.op(history.Release, e)
	op.OK, op.Token, op.Mode = e.Err == nil, e.Held.Token, mode(e.Held)
	r.record(op)
	if !r.s.Stopping() {
		r.tr.printf("%s release: %s", r.names[e.Client], errText(e.Err))
	}
}

// readOp is the history op of a read of the store that returned.
func (r *recorder) readOp(e oracle.Event) history.Op {
	op := r.op(history.Read, e)
	op.Key, op.Fence = StoreKey, e.Fence
	if e.Err == nil {
		op.OK, op.Value = true, e.Value
	}
	return op
}

// wrote records a write of the store that returned, and the section it
// closes: from the read its value was computed from to the write.
func (r *recorder) wrote(e oracle.Event) {
	op := r.op(history.Write, e)
	op.Key, op.Fence, op.Value = StoreKey, e.Fence, e.Value
	op.OK = e.Err == nil && e.Accepted
	r.record(op)
	sec := op
	sec.Kind, sec.Call, sec.Value = history.Section, e.Since, e.From
	r.record(sec)
}

// traceAbandoned traces a write a careful client gave up.
func (r *recorder) traceAbandoned(e oracle.Event) {
	name := r.names[e.Client]
	if e.What == "extend" {
		r.tr.printf("%s extension refused: write abandoned", name)
		return
	}
	r.tr.printf("%s lease check failed (%v): write abandoned", name, e.Err)
}

// traceStep traces a step of a client's workload that no oracle judges:
// an extension by hand, a misuse release, a slowed step.
func (r *recorder) traceStep(e oracle.Event) {
	if !r.tr.on() {
		return
	}
	name := r.names[e.Client]
	switch e.Kind {
	case oracle.Extended:
		r.tr.printf("%s extend: %s", name, errText(e.Err))
	case oracle.Misused:
		r.tr.printf("%s misuse release (%s): %s", name, e.What, errText(e.Err))
	case oracle.Slowed:
		r.tr.printf("%s slow step: +%v", name, e.For)
	}
}

// since is how long ago, in true time, call was: for the trace.
func (r *recorder) since(call int64) time.Duration {
	return time.Duration(r.s.Now() - call).Round(time.Microsecond)
}

// mode is the history Mode of a lease: history.ModeRead for a read lease.
func mode(l *locks.Lease) string {
	if pattern.ReadLease(l) {
		return history.ModeRead
	}
	return ""
}

// errText is a call's outcome in the trace: "ok", or its error.
func errText(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}
