package lockstest

import (
	"sync"
	"time"
)

// heartbeat measures the process's stalls in real time: a goroutine ticks
// every heartbeatEvery, and the longest gap between two ticks beyond the
// period is how long the process (or the machine) did not run it.
type heartbeat struct {
	mu    sync.Mutex
	max   time.Duration
	stop  chan struct{}
	ended sync.WaitGroup
}

const heartbeatEvery = 5 * time.Millisecond

func startHeartbeat() *heartbeat {
	h := &heartbeat{stop: make(chan struct{})}
	h.ended.Add(1)
	go h.run()
	return h
}

func (h *heartbeat) run() {
	defer h.ended.Done()
	tick := time.NewTicker(heartbeatEvery)
	defer tick.Stop()
	last := time.Now()
	for {
		select {
		case <-h.stop:
			return
		case now := <-tick.C:
			h.mu.Lock()
			h.max = max(h.max, now.Sub(last)-heartbeatEvery)
			h.mu.Unlock()
			last = now
		}
	}
}

// longest is the longest stall since the last reset.
func (h *heartbeat) longest() time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.max
}

func (h *heartbeat) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.max = 0
}

func (h *heartbeat) close() {
	close(h.stop)
	h.ended.Wait()
}
