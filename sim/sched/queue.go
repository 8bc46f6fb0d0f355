package sched

// event is one entry of the queue: fn runs at true time at; seq breaks ties
// in the order events were scheduled.
type event struct {
	at  int64
	seq uint64
	fn  func()
}

func (a *event) before(b *event) bool {
	return a.at < b.at || (a.at == b.at && a.seq < b.seq)
}

// queue is a binary min-heap of events.
type queue []event

func (q *queue) push(e event) {
	*q = append(*q, e)
	h := *q
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

func (q *queue) pop() event {
	h := *q
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h[last] = event{}
	h = h[:last]
	*q = h
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
