package realrun

import (
	"sort"
	"sync"
	"time"

	"github.com/locksim/locksim/history"
)

// recorder collects ops and events from many goroutines, timed on the
// monotonic clock from its start.
type recorder struct {
	start  time.Time
	mu     sync.Mutex
	ops    []history.Op
	events []history.Event
}

func newRecorder() *recorder { return &recorder{start: time.Now()} }

// now is the time since the start, in nanoseconds (monotonic).
func (r *recorder) now() int64 { return time.Since(r.start).Nanoseconds() }

func (r *recorder) op(o history.Op) {
	r.mu.Lock()
	r.ops = append(r.ops, o)
	r.mu.Unlock()
}

func (r *recorder) event(e history.Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

// history returns what was recorded, ops ordered by call time (then
// client, then kind) and events by time, so that the file reads in order.
func (r *recorder) history() *history.History {
	r.mu.Lock()
	defer r.mu.Unlock()
	ops := append([]history.Op(nil), r.ops...)
	sort.SliceStable(ops, func(i, j int) bool {
		a, b := ops[i], ops[j]
		if a.Call != b.Call {
			return a.Call < b.Call
		}
		if a.Client != b.Client {
			return a.Client < b.Client
		}
		return a.Kind < b.Kind
	})
	events := append([]history.Event(nil), r.events...)
	sort.SliceStable(events, func(i, j int) bool { return events[i].At < events[j].At })
	return &history.History{Ops: ops, Events: events}
}
