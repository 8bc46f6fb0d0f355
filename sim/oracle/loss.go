package oracle

import (
	"fmt"
	"slices"
	"time"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// The loss-signal oracle. For every holding it finds the true time at
// which the lock stopped being the holder's on the server — the first
// instant at which fewer than a quorum of the nodes (one of one, three of
// five) hold the lease's token at the lease's key (or wherever the
// pattern says its holdings live, Pattern.Holding: a semaphore permit in
// its set and at its own key): the key expired, was deleted, was taken by
// another owner, or a restart or failover lost it —
// and the true time at which the holder learnt of it: its lease's Done
// closed, or a Release it called after the loss returned an error. The
// scheduler reports every event (sched.Sched.AfterEvent), so both instants
// are exact. Only losses before the holder called Release count: a
// holder's own release is no loss.
//
// Latency is signal − loss, less the time the holder's process was
// paused (stop-the-world) in between: a paused process can neither be
// told nor act, and its timer fires as soon as it runs again, so a pause
// costs the holder nothing the oracle can charge to the lock (the
// overlap oracle judges what the holder does after it). A starved
// process is not paused: its workload runs while its timer does not. A
// holder whose Done closed before the server let the lock go (the
// validity timer fires ahead of the key's expiry by the drift allowance)
// has latency 0. A pattern that claims LossSignal (pattern.Claims) breaks
// the claim when some latency exceeds its bound.

// lossHolding is one holding the oracle watches.
type lossHolding struct {
	id, client int
	lease      *locks.Lease
	lostAt     int64
	lost       bool
	doneAt     int64 // when its Done was seen closed (-1: not yet)
	blind      bool
	released   bool           // the holder called Release
	marks      []pattern.Mark // where it lives on a node (Pattern.Where)
	expires    []int64        // per node: the true time it expires there (0: no TTL or not held)
}

// Loss is the loss-signal oracle of one run.
type Loss struct {
	v      View
	log    *Log
	where  func(*locks.Lease) []pattern.Mark
	end    int64 // the run's end in true time
	quorum int
	bound  int64
	open   []*lossHolding
	byID   map[int]*lossHolding
	dirty  bool  // a node executed a command or a fault struck since the last look
	next   int64 // the earliest key expiry among the open holdings (0: none)
	// pending are the lost holdings whose holder is in Release, not yet
	// told of the loss: its error will tell it, or the run's end comes.
	pending []*lossHolding
	lat     []int64
	prev    []int64 // look's copy of a holding's expiries before it looks again
	// releasing is, per client in Release, the holding it releases
	// (nil: none watched, or the holder knew of its loss).
	releasing map[int]*lossHolding
	res       LossSignal
}

// NewLoss is the loss-signal oracle of a run of a pattern that claims c
// under a TTL of ttl, whose holdings live where where says (the
// pattern's Where).
func NewLoss(v View, log *Log, c pattern.Claims, ttl time.Duration, where func(*locks.Lease) []pattern.Mark) *Loss {
	lw := &Loss{v: v, log: log, where: where, quorum: len(v.Nodes())/2 + 1, byID: map[int]*lossHolding{}, releasing: map[int]*lossHolding{}}
	lw.bound = int64(LossSignalBound(c, ttl))
	lw.res.Bound = time.Duration(lw.bound)
	return lw
}

// Observe follows the holdings, the holders' acts and releases, and
// after each event of the simulator the nodes.
func (lw *Loss) Observe(e Event) {
	switch e.Kind {
	case Granted:
		lw.grant(e.Client, e.Lease, e.Held)
	case Acting:
		lw.act(e.Lease)
	case Releasing:
		lw.releasing[e.Client] = lw.release(e.Held)
	case Released:
		h := lw.releasing[e.Client]
		delete(lw.releasing, e.Client)
		lw.released(h, e.Err)
	case Ticked:
		lw.dirty = lw.dirty || e.Touched
		lw.afterEvent()
	}
}

// grant starts watching the holding id that client c was just granted.
func (lw *Loss) grant(c, id int, l *locks.Lease) {
	h := &lossHolding{id: id, client: c, lease: l, doneAt: -1, expires: make([]int64, len(lw.v.Nodes())),
		marks: lw.where(l)}
	if lw.owners(h, lw.v.Now()) < lw.quorum {
		lw.res.Untracked++
		return
	}
	lw.open = append(lw.open, h)
	lw.byID[id] = h
	lw.schedule()
}

// owners counts the nodes that hold h now — every mark of it is there —
// and notes when h expires on each of them in true time: with the first
// of its marks to expire.
func (lw *Loss) owners(h *lossHolding, now int64) int {
	n := 0
	for i, nd := range lw.v.Nodes() {
		h.expires[i] = 0
		at, ok := lw.holdsAt(nd, h.marks)
		if !ok {
			continue
		}
		n++
		if at > 0 {
			clk := nd.Clock()
			left := (at+1)*int64(time.Millisecond) - clk.Wall(now) // Redis: expired once now > expireAt
			h.expires[i] = now + clk.TrueFor(time.Duration(max(left, 0)))
		}
	}
	return n
}

// holdsAt reports whether every mark is on node nd, and the earliest
// expiry among them, in the node's milliseconds (0: none expires).
func (lw *Loss) holdsAt(nd Node, marks []pattern.Mark) (int64, bool) {
	at := int64(0)
	for _, m := range marks {
		e, ok := nd.PeekMark(m.Key, m.Token)
		if !ok {
			return 0, false
		}
		if e > 0 && (at == 0 || e < at) {
			at = e
		}
	}
	return at, true
}

// schedule recomputes the earliest expiry the next look must not miss.
func (lw *Loss) schedule() {
	lw.next = 0
	for _, h := range lw.open {
		if h.lost {
			continue
		}
		for _, e := range h.expires {
			if e > 0 && (lw.next == 0 || e < lw.next) {
				lw.next = e
			}
		}
	}
}

// afterEvent is the scheduler's AfterEvent hook: it notes the signals
// given and the losses that happened in the event just run.
func (lw *Loss) afterEvent() {
	if len(lw.open) == 0 && len(lw.pending) == 0 || lw.v.Stopping() {
		return
	}
	now := lw.v.Now()
	if lw.dirty || lw.next > 0 && now >= lw.next {
		lw.dirty = false
		lw.look(now)
	}
	for _, h := range lw.open {
		lw.observe(h, now)
	}
	lw.prune()
	lw.observePending(now)
}

// observePending signals the losses of the holders in Release whose Done
// has closed meanwhile: Release itself closes it, before its request
// leaves, when it finds the validity run out.
func (lw *Loss) observePending(now int64) {
	lw.pending = slices.DeleteFunc(lw.pending, func(h *lossHolding) bool {
		if !doneClosed(h.lease) {
			return false
		}
		lw.signal(h, max(now, h.lostAt), "its lease's Done closed in its Release")
		return true
	})
}

// observe notes, now, whether h's Done has closed, and signals a loss it
// tells. The workload calls it too before it acts or releases, since a
// goroutine may close Done and act in one step.
func (lw *Loss) observe(h *lossHolding, now int64) {
	if h.released {
		return
	}
	if h.doneAt < 0 && doneClosed(h.lease) {
		h.doneAt = now
	}
	if h.lost && h.doneAt >= 0 {
		lw.signal(h, max(h.doneAt, h.lostAt), "its lease's Done closed")
	}
}

func doneClosed(l *locks.Lease) bool {
	select {
	case <-l.Done():
		return true
	default:
		return false
	}
}

// look checks every open holding not yet lost against the nodes.
func (lw *Loss) look(now int64) {
	for _, h := range lw.open {
		if h.lost || h.released {
			continue
		}
		lw.prev = append(lw.prev[:0], h.expires...)
		if lw.owners(h, now) >= lw.quorum {
			continue
		}
		h.lost, h.lostAt = true, lossTime(lw.prev, h.expires, now)
		lw.res.Losses++
	}
	lw.schedule()
}

// lossTime is when a holding that no longer has a quorum lost it: the
// latest expiry, at or before now, of the keys that expired since the last
// look (the quorum fell with the last of them), else now (a command, a
// restart or a failover took it).
func lossTime(prev, cur []int64, now int64) int64 {
	at := int64(-1)
	for i, e := range prev {
		if e > 0 && e <= now && cur[i] == 0 {
			at = max(at, e)
		}
	}
	if at < 0 {
		return now
	}
	return at
}

// signal records that h's holder learnt of its loss now.
func (lw *Loss) signal(h *lossHolding, now int64, how string) {
	lw.res.Signalled++
	lw.finish(h, now, how)
}

// finish records h's latency, judged against the bound, and stops
// watching it.
func (lw *Loss) finish(h *lossHolding, now int64, how string) {
	d := max(now-h.lostAt-lw.paused(h.client, h.lostAt, now), 0)
	lw.lat = append(lw.lat, d)
	h.released = true
	delete(lw.byID, h.id)
	if lw.bound == 0 || d <= lw.bound {
		return
	}
	lw.res.Late++
	lw.log.Violate(pattern.FindingLateSignal, []int{h.client}, fmt.Sprintf("%s lost the lock on the server at t=%s and learnt of it %v later, its pauses aside (%s), past its bound %v",
		lw.v.Name(h.client), FormatTime(h.lostAt), time.Duration(d).Round(time.Microsecond), how, time.Duration(lw.bound)))
}

// paused is how long, within [from, to], client c's process was paused.
func (lw *Loss) paused(c int, from, to int64) int64 {
	return lw.v.Paused(c, from, to)
}

// prune drops the holdings that are over.
func (lw *Loss) prune() {
	lw.open = slices.DeleteFunc(lw.open, func(h *lossHolding) bool { return h.released })
}

// act notes that the holder of id relied on its lease now: blind, if the
// lock was lost and the holder had not learnt it.
func (lw *Loss) act(id int) {
	if h := lw.byID[id]; h != nil {
		lw.observe(h, lw.v.Now())
	}
	if h := lw.byID[id]; h != nil && h.lost && !h.blind {
		h.blind = true
		lw.res.Blind++
	}
}

// release notes that the holder of l calls Release now; released
// judges a loss it had not learnt of by the error Release returned,
// unless its Done closed first (observePending).
func (lw *Loss) release(l *locks.Lease) *lossHolding {
	var h *lossHolding
	for _, o := range lw.open {
		if o.lease == l && !o.released {
			h = o
		}
	}
	if h == nil {
		return nil
	}
	if lw.observe(h, lw.v.Now()); h.released {
		return nil // it knew: Done had closed
	}
	h.released = true
	if !h.lost {
		delete(lw.byID, h.id)
		return nil
	}
	lw.pending = append(lw.pending, h)
	return h
}

func (lw *Loss) released(h *lossHolding, err error) {
	if h == nil || lw.v.Stopping() || !slices.Contains(lw.pending, h) {
		return // the run ended first (result closes it), or Done told it
	}
	lw.pending = slices.DeleteFunc(lw.pending, func(o *lossHolding) bool { return o == h })
	if err != nil {
		lw.signal(h, lw.v.Now(), "Release returned "+err.Error())
		return
	}
	lw.finish(h, lw.v.Now(), "never: Release returned nil")
}

// End closes the losses still unsignalled at the end of the run, at.
func (lw *Loss) End(at int64) {
	end := at
	for _, h := range lw.open {
		if h.lost && !h.released {
			lw.finish(h, end, "not by the end of the run")
		}
	}
	for _, h := range lw.pending {
		lw.finish(h, end, "not by the end of the run: its Release had not returned")
	}
	lw.open, lw.pending = nil, nil
}

// Result returns the measurements.
func (lw *Loss) Result() LossSignal {
	r := lw.res
	if len(lw.lat) > 0 {
		slices.Sort(lw.lat)
		r.Max = time.Duration(lw.lat[len(lw.lat)-1])
		r.P99 = time.Duration(lw.lat[min(len(lw.lat)*99/100, len(lw.lat)-1)])
	}
	return r
}
