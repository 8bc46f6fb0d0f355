package sim

import "fmt"

// An event is what a client or the store reports to the oracle. The
// oracle alone changes its state (its counters and findings): the
// reporters describe what happened and observe judges it.
type event struct {
	kind   eventKind
	client int // the client concerned (-1 where the reporter does not know)
	// lostUpdate only: the value written, the value it was computed from,
	// and the store's value it overwrote.
	value, read, over int64
}

// eventKind says what an event reports.
type eventKind uint8

const (
	// abandonedWrite: a careful client skipped its section's write (its
	// lease check failed, or its extension was refused).
	abandonedWrite eventKind = iota + 1
	// staleRejected: the store refused a write whose fence was stale.
	staleRejected
	// writeAccepted: the store accepted a write.
	writeAccepted
	// lostUpdate: the store accepted a write computed from a value it no
	// longer held.
	lostUpdate
)

// observe updates the oracle's state with e.
func (o *oracle) observe(e event) {
	switch e.kind {
	case abandonedWrite:
		o.safety.Abandoned++
	case staleRejected:
		o.safety.StaleRejected++
	case writeAccepted:
		o.safety.Accepted++
	case lostUpdate:
		o.violate("lost-update", []int{e.client}, fmt.Sprintf("%s wrote counter=%d, computed from %d, over %d: %d increment(s) lost",
			o.v.name(e.client), e.value, e.read, e.over, max(e.over-e.read, 0)))
	}
}
