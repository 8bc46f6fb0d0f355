package model

// effect is what a model knows of one call before judging its outcome:
// the state it leads to if it succeeds (next) and if it fails (failed),
// and whether each can happen from the current state.
type effect[S any] struct {
	next, failed S
	can, canFail bool
}

// judge is the outcome switch every lock model shares. An unknown outcome
// may have taken effect or not: it is always legal, and leads to next
// where the call could succeed, else to failed. A success is legal only
// where the call could succeed; a refusal only where it could fail.
func judge[S any](e effect[S], out LockOut) (bool, any) {
	switch {
	case out.Unknown && e.can:
		return true, e.next
	case out.Unknown:
		return true, e.failed
	case out.OK:
		return e.can, e.next
	}
	return e.canFail, e.failed
}

// describeOutcome appends what a call observed to its description.
func describeOutcome(call string, out LockOut) string {
	switch {
	case out.Unknown:
		return call + " → ?"
	case !out.OK:
		return call + " → refused"
	}
	return call + " → ok"
}
