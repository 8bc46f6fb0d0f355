package sched

// event is one entry of the queue: r runs at true time at; seq breaks ties
// in the order events were scheduled.
type event struct {
	at  int64
	seq uint64
	r   Runner
}

func (a *event) before(b *event) bool {
	return a.at < b.at || (a.at == b.at && a.seq < b.seq)
}

// nLanes is the number of sorted lanes beside the heap.
const nLanes = 4

// queue holds the pending events and pops them in (at, seq) order. Every
// push must carry a seq larger than any before it (Sched.At numbers them).
//
// Most of a run's events are timers armed with one fixed delay from the
// current time — a call's client-side timeout, a context's deadline, a
// watchdog's period — and most of those are never needed: the call
// returned long before. Pushed in order of scheduling, such a series is
// already sorted. So beside a binary heap the queue keeps a few FIFO
// lanes, each sorted by construction: an event goes to the lane whose last
// event is the latest one not after it (so a lane stays sorted), else to
// the heap. A pop takes the least of the heap's top and the lanes' heads.
// The long-lived timers then sit in lanes, pushed and popped in constant
// time, and the heap holds only the near events (replies), a few dozen
// rather than thousands. Events at the time of the last pop (a G's start,
// a wake-up queued by a G, a Yield) have a lane of their own, sorted too:
// such a series only grows in time. The order popped is exactly the heap's:
// the least (at, seq) pending, whichever structure holds it.
type queue struct {
	heap  []event
	lanes [nLanes]lane
	now   lane  // events at the time of the last pop: wake-ups, a G's start
	last  int64 // the time of the last pop
	n     int
}

// lane is a FIFO of events in (at, seq) order.
type lane struct {
	buf  []event
	head int
}

func (l *lane) empty() bool   { return l.head == len(l.buf) }
func (l *lane) first() *event { return &l.buf[l.head] }
func (l *lane) last() *event  { return &l.buf[len(l.buf)-1] }

func (l *lane) pop() event {
	e := l.buf[l.head]
	l.buf[l.head] = event{}
	l.head++
	switch {
	case l.head == len(l.buf):
		l.buf, l.head = l.buf[:0], 0
	case l.head >= 1024 && l.head*2 >= len(l.buf): // keep the backing array from growing forever
		k := copy(l.buf, l.buf[l.head:])
		clear(l.buf[k:])
		l.buf, l.head = l.buf[:k], 0
	}
	return e
}

func (l *lane) reset() {
	clear(l.buf)
	l.buf, l.head = l.buf[:0], 0
}

// len is the number of pending events.
func (q *queue) len() int { return q.n }

// clear drops every pending event.
func (q *queue) clear() {
	clear(q.heap)
	q.heap = q.heap[:0]
	for i := range q.lanes {
		q.lanes[i].reset()
	}
	q.now.reset()
	q.n = 0
}

// push adds e: to the lane whose last event is the latest one not after
// e, an empty lane if none is, else the heap.
func (q *queue) push(e event) {
	q.n++
	if e.at == q.last && (q.now.empty() || q.now.last().at <= e.at) {
		q.now.buf = append(q.now.buf, e)
		return
	}
	best, free := -1, -1
	for i := range q.lanes {
		l := &q.lanes[i]
		if l.empty() {
			if free < 0 {
				free = i
			}
			continue
		}
		if t := l.last(); t.at <= e.at && (best < 0 || t.at > q.lanes[best].last().at) {
			best = i
		}
	}
	if best < 0 {
		best = free
	}
	if best >= 0 {
		q.lanes[best].buf = append(q.lanes[best].buf, e)
		return
	}
	q.heapPush(e)
}

// next returns the lane that holds the least pending event, or nil for
// the heap's top. The queue must not be empty.
func (q *queue) next() *lane {
	var at *lane
	var min *event
	if len(q.heap) > 0 {
		min = &q.heap[0]
	}
	if !q.now.empty() && (min == nil || q.now.first().before(min)) {
		at, min = &q.now, q.now.first()
	}
	for i := range q.lanes {
		l := &q.lanes[i]
		if !l.empty() && (min == nil || l.first().before(min)) {
			at, min = l, l.first()
		}
	}
	return at
}

// peekAt is the time of the least pending event. The queue must not be
// empty.
func (q *queue) peekAt() int64 {
	if l := q.next(); l != nil {
		return l.first().at
	}
	return q.heap[0].at
}

// pop removes and returns the least pending event. The queue must not be
// empty.
func (q *queue) pop() event {
	q.n--
	var e event
	if l := q.next(); l != nil {
		e = l.pop()
	} else {
		e = q.heapPop()
	}
	q.last = e.at
	return e
}

func (q *queue) heapPush(e event) {
	q.heap = append(q.heap, e)
	h := q.heap
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].before(&h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *queue) heapPop() event {
	h := q.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h[last] = event{}
	h = h[:last]
	q.heap = h
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && h[l].before(&h[m]) {
			m = l
		}
		if r < len(h) && h[r].before(&h[m]) {
			m = r
		}
		if m == i {
			return top
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
