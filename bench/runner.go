package bench

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// KeyMode says which keys a cell's clients lock.
type KeyMode string

// The key modes.
const (
	Distinct KeyMode = "distinct" // a key per client: no contention
	Hot      KeyMode = "hot"      // one key for all clients
)

// Cell is one workload: a family's node count, a client count and a key mode.
type Cell struct {
	Family  Family  `json:"family"`
	Nodes   int     `json:"nodes"`
	Clients int     `json:"clients"`
	Keys    KeyMode `json:"keys"`
}

func (c Cell) String() string {
	return fmt.Sprintf("%s/%dn/%dc/%s", c.Family, c.Nodes, c.Clients, c.Keys)
}

// Timing is how long one run lasts and the lock's TTL.
type Timing struct {
	Warmup   time.Duration // cycles run but are not measured
	Duration time.Duration // the measured window
	TTL      time.Duration
}

// Sample is one run of one subject on one cell: what happened in the
// measured window.
type Sample struct {
	Subject string
	Kind    Kind
	Cell    Cell
	Rep     int
	Window  time.Duration
	// Acquired counts cycles (acquire + release) completed in the window.
	Acquired int64
	// Failed counts attempts that found the lock taken: those the runner
	// retried and those the subject retried by itself.
	Failed int64
	// Errors counts attempts and releases that failed otherwise.
	Errors     int64
	FirstError string
	// RoundTrips is the number of Redis round trips sent in the window.
	RoundTrips int64
	// Acquire is the wait from wanting the lock to holding it, retries
	// included; Cycle is that plus the release.
	Acquire, Cycle Histogram
}

// PerSecond is the rate of completed cycles.
func (s *Sample) PerSecond() float64 {
	if s.Window <= 0 {
		return 0
	}
	return float64(s.Acquired) / s.Window.Seconds()
}

// job is one run to make.
type job struct {
	subject Subject
	cell    Cell
	rep     int
}

// runOne measures s on cell. Every client has its own Locker (on its own key
// or on the shared hot key) over the same go-redis clients, loops acquire →
// release as fast as it can, and retries at once when the lock is taken.
func runOne(ctx context.Context, t *Target, j job, tm Timing, prefix string) (Sample, error) {
	var rt, retries Counter
	nodes, err := t.Open(j.cell.Nodes, j.cell.Clients+8, &rt)
	if err != nil {
		return Sample{}, err
	}
	defer CloseAll(nodes)
	defer func() { _ = deleteKeys(context.WithoutCancel(ctx), nodes, prefix) }()
	lockers := make([]Locker, j.cell.Clients)
	for i := range lockers {
		key := prefix + ":hot"
		if j.cell.Keys == Distinct {
			key = prefix + ":k" + strconv.Itoa(i)
		}
		if lockers[i], err = j.subject.New(Conn{Nodes: nodes, TTL: tm.TTL, Retries: &retries}, key); err != nil {
			return Sample{}, err
		}
	}
	s := Sample{Subject: j.subject.Name, Kind: j.subject.Kind, Cell: j.cell, Rep: j.rep, Window: tm.Duration}
	start := time.Now().Add(tm.Warmup)
	end := start.Add(tm.Duration)
	rt.Window(start, end)
	retries.Window(start, end)
	workers := make([]worker, len(lockers))
	actx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i := range workers {
		workers[i] = worker{l: lockers[i], start: start, end: end}
		wg.Go(func() { workers[i].loop(actx) })
	}
	waitUntil(ctx, end)
	stop()
	wg.Wait()
	s.RoundTrips, s.Failed = rt.Load(), retries.Load()
	for i := range workers {
		workers[i].addTo(&s)
	}
	return s, ctx.Err()
}

// judgeRun fails a run whose nodes stopped answering, or in which no
// cycle completed while calls failed: its row would read as a figure (0
// cycles/s) when it is a failure of the target.
func judgeRun(ctx context.Context, t *Target, s Sample) error {
	if err := t.stillAnswering(ctx, s.Cell.Nodes); err != nil {
		return err
	}
	if s.Acquired == 0 && s.Errors > 0 {
		return fmt.Errorf("no cycle completed in the %v window: %d calls failed, the first: %s", s.Window, s.Errors, s.FirstError)
	}
	return nil
}

// waitUntil sleeps until at, or until ctx ends.
func waitUntil(ctx context.Context, at time.Time) {
	t := time.NewTimer(time.Until(at))
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// worker is one bench client.
type worker struct {
	l          Locker
	start, end time.Time

	acquired, failed, errors int64
	firstErr                 error
	acquire, cycle           Histogram
}

func (w *worker) inWindow(t time.Time) bool { return !t.Before(w.start) && t.Before(w.end) }

func (w *worker) loop(ctx context.Context) {
	for ctx.Err() == nil {
		t0 := time.Now()
		h, ok := w.acquireOnce(ctx)
		if !ok {
			return
		}
		t1 := time.Now()
		err := h.Release(context.WithoutCancel(ctx)) // a held lock is always given back
		t2 := time.Now()
		if !w.inWindow(t2) {
			continue
		}
		if err != nil {
			w.fail(err)
			continue
		}
		w.acquired++
		w.acquire.RecordDuration(t1.Sub(t0))
		w.cycle.RecordDuration(t2.Sub(t0))
	}
}

// acquireOnce retries until the lock is held; false when ctx ended first.
func (w *worker) acquireOnce(ctx context.Context) (Held, bool) {
	for {
		h, err := w.l.Acquire(ctx)
		if err == nil {
			return h, true
		}
		if ctx.Err() != nil {
			return nil, false
		}
		busy := errors.Is(err, ErrBusy)
		if w.inWindow(time.Now()) {
			if busy {
				w.failed++
			} else {
				w.fail(err)
			}
		}
		if !busy {
			time.Sleep(time.Millisecond) // do not spin on a broken connection
		}
	}
}

func (w *worker) fail(err error) {
	w.errors++
	if w.firstErr == nil {
		w.firstErr = err
	}
}

func (w *worker) addTo(s *Sample) {
	s.Acquired += w.acquired
	s.Failed += w.failed
	s.Errors += w.errors
	if s.FirstError == "" && w.firstErr != nil {
		s.FirstError = w.firstErr.Error()
	}
	s.Acquire.Merge(&w.acquire)
	s.Cycle.Merge(&w.cycle)
}
