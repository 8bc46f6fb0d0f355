package realmode

import (
	"sync"
	"time"
)

// The client's watcher is one goroutine beside the workload: it tells the
// coordinator the instant a held lease stops being the holder's on its
// own view (Done closing, or Err turning non-nil for a lease with no
// Done, or Err found non-nil as its holder begins to release it), for the
// loss-signal oracle, and it ticks every heartbeatEvery, reporting each
// gap between its ticks of stallReport or more: the time the process did
// not run, planned (a SIGSTOP) or not (the machine). The tick is not
// finer: Go's timers wake about every millisecond at best here (a 250µs
// ticker measured 1.1ms between ticks, 1942 of 2000 gaps of two ticks or
// more), so a finer one would report the whole run as stopped and leave
// the lock charged with nothing.

const (
	heartbeatEvery = 2 * time.Millisecond
	stallReport    = 2 * heartbeatEvery // a tick missed
)

// doner is a lease that closes a channel when it is lost (locks.Lease).
type doner interface{ Done() <-chan struct{} }

type watcher struct {
	c      *conn
	mu     sync.Mutex
	leases map[int]*watched // by the coordinator's lease id
	stop   chan struct{}
	wg     sync.WaitGroup
}

type watched struct {
	l       Lease
	unwatch chan struct{}
}

func newWatcher(c *conn) *watcher {
	w := &watcher{c: c, leases: map[int]*watched{}, stop: make(chan struct{})}
	w.wg.Add(1)
	go w.heartbeat()
	return w
}

// watch starts watching lease l, the coordinator's lease id.
func (w *watcher) watch(id int, l Lease) {
	if l == nil {
		return
	}
	h := &watched{l: l, unwatch: make(chan struct{})}
	w.mu.Lock()
	w.leases[id] = h
	w.mu.Unlock()
	if d, ok := l.(doner); ok {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			select {
			case <-d.Done():
				w.lost(id, h)
			case <-h.unwatch:
			case <-w.stop:
			}
		}()
	}
}

// releasing stops watching lease id: its holder is beginning to release
// it. A lease already over on the holder's view (its Err non-nil) is
// reported lost now, as the holder sees it: after a stop, the workload
// may run before the goroutine that would close Done, and the loss
// would otherwise be told only by Release's return. From here on a loss
// is told by Release's error.
func (w *watcher) releasing(id int) {
	w.mu.Lock()
	h := w.leases[id]
	if h != nil {
		delete(w.leases, id)
		close(h.unwatch)
	}
	w.mu.Unlock()
	if h != nil && h.l.Err() != nil {
		_ = w.c.send(Msg{Kind: msgLost, Lease: id, At: time.Now().UnixNano()})
	}
}

// lost reports lease id lost now, once.
func (w *watcher) lost(id int, h *watched) {
	at := time.Now().UnixNano()
	w.mu.Lock()
	cur := w.leases[id]
	if cur == h {
		delete(w.leases, id)
	}
	w.mu.Unlock()
	if cur == h {
		_ = w.c.send(Msg{Kind: msgLost, Lease: id, At: at})
	}
}

// heartbeat ticks, reports stalls and polls the leases that have no Done.
func (w *watcher) heartbeat() {
	defer w.wg.Done()
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		now := time.Now()
		if gap := now.Sub(last); gap >= stallReport {
			_ = w.c.send(Msg{Kind: msgStall, Gap: gap, At: now.UnixNano()})
		}
		last = now
		w.mu.Lock()
		var gone []int
		for id, h := range w.leases {
			if _, ok := h.l.(doner); !ok && h.l.Err() != nil {
				gone = append(gone, id)
			}
		}
		hs := make([]*watched, len(gone))
		for i, id := range gone {
			hs[i] = w.leases[id]
		}
		w.mu.Unlock()
		for i, id := range gone {
			w.lost(id, hs[i])
		}
	}
}

func (w *watcher) close() {
	close(w.stop)
	w.wg.Wait()
}
