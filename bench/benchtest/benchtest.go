// Package benchtest holds the test and benchmark helpers that the bench
// package and the bench/refs module share: a target on real redis-servers
// when they are installed (embedded miniredis otherwise), a mutual-exclusion
// check every subject must pass, and a per-cycle microbenchmark.
package benchtest

import (
	"context"
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locksim/locksim/bench"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// Target returns n nodes for tb: real redis-servers (stopped at the end)
// when redis-server is installed or CI=true requires it, embedded miniredis
// otherwise.
func Target(tb testing.TB, n int) *bench.Target {
	tb.Helper()
	if redistest.Available() || os.Getenv("CI") == "true" {
		ss := redistest.Require(tb, n)
		t, err := bench.Remote(redistest.Addrs(ss))
		if err != nil {
			tb.Fatal(err)
		}
		return t
	}
	t, err := bench.Embedded(n)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(t.Close)
	return t
}

// locker builds one client's locker of s on key over the first nodes of tg.
func locker(tb testing.TB, tg *bench.Target, s bench.Subject, nodes int, key string, pool int) bench.Locker {
	tb.Helper()
	var rt, retries bench.Counter
	cs, err := tg.Open(nodes, pool, &rt)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { bench.CloseAll(cs) })
	l, err := s.New(bench.Conn{Nodes: cs, TTL: 10 * time.Second, Retries: &retries}, key)
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// Exclusive has clients goroutines, each with its own locker of s, take one
// hot key cycles times each, and fails if more than s.Holders ever hold it
// at once or a cycle fails other than by finding the lock taken. It skips
// subjects that make no such claim (Holders 0).
func Exclusive(t *testing.T, tg *bench.Target, s bench.Subject, nodes, clients, cycles int) {
	t.Helper()
	if s.Holders == 0 {
		t.Skipf("%s claims no bound on holders (readers share)", s.Name)
	}
	key := "benchtest:exclusive:" + s.Name + ":" + t.Name()
	lockers := make([]bench.Locker, clients)
	for i := range lockers {
		lockers[i] = locker(t, tg, s, nodes, key, 4)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var holders, done atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for _, l := range lockers {
		wg.Go(func() {
			for range cycles {
				if err := holdOnce(ctx, l, &holders, int64(s.Holders)); err != nil {
					errs <- err
					return
				}
				done.Add(1)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("%s: %v", s.Name, err)
	}
	if got := done.Load(); got != int64(clients*cycles) {
		t.Errorf("%s: %d cycles completed, want %d", s.Name, got, clients*cycles)
	}
}

var errOverlap = errors.New("more clients than allowed held the lock at once")

func holdOnce(ctx context.Context, l bench.Locker, holders *atomic.Int64, most int64) error {
	for {
		h, err := l.Acquire(ctx)
		if errors.Is(err, bench.ErrBusy) {
			time.Sleep(time.Millisecond)
			continue
		}
		if err != nil {
			return err
		}
		if holders.Add(1) > most {
			return errOverlap
		}
		time.Sleep(100 * time.Microsecond)
		holders.Add(-1)
		return h.Release(ctx)
	}
}

// Cycles benchmarks one uncontended acquire+release of s per iteration, on
// one client, and reports the Redis round trips per cycle and the client
// process's CPU time (user + system) per cycle, cpu-ns/op: on a machine
// whose cores the clients share with redis-server, the client's CPU per
// cycle is what a lock costs in throughput, and unlike ns/op it moves
// little with the load of other processes.
func Cycles(b *testing.B, tg *bench.Target, s bench.Subject, nodes int) {
	var rt, retries bench.Counter
	cs, err := tg.Open(nodes, 4, &rt)
	if err != nil {
		b.Fatal(err)
	}
	defer bench.CloseAll(cs)
	l, err := s.New(bench.Conn{Nodes: cs, TTL: 10 * time.Second, Retries: &retries}, "benchtest:cycle:"+b.Name())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	cycle := func() {
		h, err := l.Acquire(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if err := h.Release(ctx); err != nil {
			b.Fatal(err)
		}
	}
	cycle() // load the scripts, fill the pool
	rt.Reset()
	var n int64
	cpu0, cpuOK := cpuTime()
	for b.Loop() {
		cycle()
		n++
	}
	cpu1, _ := cpuTime()
	b.ReportMetric(float64(rt.Load())/float64(n), "roundtrips/op")
	if cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/float64(n), "cpu-ns/op")
	}
}
