package locks_test

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// blackhole is a TCP proxy to a Redis server that, once Hole is called,
// keeps every connection open but forwards nothing either way: the network
// fault in which a client sees neither an error nor a reply.
type blackhole struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	holed  bool
	conns  []net.Conn
	wg     sync.WaitGroup
}

func startBlackhole(t *testing.T, target string) *blackhole {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &blackhole{ln: ln, target: target}
	b.wg.Add(1)
	go b.accept()
	t.Cleanup(b.close)
	return b
}

func (b *blackhole) addr() string { return b.ln.Addr().String() }

// hole stops all forwarding, on existing connections and new ones.
func (b *blackhole) hole() {
	b.mu.Lock()
	b.holed = true
	b.mu.Unlock()
}

func (b *blackhole) isHoled() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.holed
}

func (b *blackhole) accept() {
	defer b.wg.Done()
	for {
		c, err := b.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", b.target)
		if err != nil {
			c.Close()
			continue
		}
		b.mu.Lock()
		b.conns = append(b.conns, c, s)
		b.mu.Unlock()
		b.wg.Add(2)
		go b.pump(s, c)
		go b.pump(c, s)
	}
}

// pump copies src to dst until either closes, dropping what it reads once
// the proxy is holed (reading on, so that the sender never blocks).
func (b *blackhole) pump(dst, src net.Conn) {
	defer b.wg.Done()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !b.isHoled() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				dst.Close()
			}
			return
		}
	}
}

func (b *blackhole) close() {
	b.ln.Close()
	b.mu.Lock()
	for _, c := range b.conns {
		c.Close()
	}
	b.mu.Unlock()
	b.wg.Wait()
}

// TestLossSignalBlackholed: a watchdog holder whose connection is
// black-holed (go-redis defaults: a 3s read timeout, retries) learns of the
// loss when its validity runs out on its clock: its Done closes before, or
// within a generous bound of, another client acquiring the lock — not
// after the client library gives up on the stuck renewal.
func TestLossSignalBlackholed(t *testing.T) {
	srv := redistest.Require(t, 1)[0]
	const ttl = time.Second
	const bound = time.Second // go-redis alone would take 3s or more
	for _, tc := range []struct {
		name string
		new  func(r locks.Redis, key string, o locks.Options) (locks.Locker, error)
	}{
		{"Watchdog", func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			return locks.NewWatchdog(r, k, o)
		}},
		{"Service", func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewService(r, k, o) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, key := context.Background(), "blackhole:"+tc.name
			p := startBlackhole(t, srv.Addr)
			viaProxy := redis.NewClient(&redis.Options{Addr: p.addr(), DialerRetries: 1})
			direct := redis.NewClient(&redis.Options{Addr: srv.Addr, DialerRetries: 1})
			t.Cleanup(func() { viaProxy.Close(); direct.Close() })
			holder, err := tc.new(viaProxy, key, locks.Options{TTL: ttl, Retry: locks.Retry{Attempts: 1}, AllowContextTimeoutDisabled: true})
			if err != nil {
				t.Fatal(err)
			}
			l, err := holder.Acquire(ctx)
			if err != nil {
				t.Fatalf("Acquire through the proxy = %v", err)
			}
			doneAt := make(chan time.Time, 1)
			go func() { <-l.Done(); doneAt <- time.Now() }()
			p.hole()
			other, err := tc.new(direct, key, locks.Options{TTL: ttl, AllowContextTimeoutDisabled: true,
				Retry: locks.Retry{Attempts: -1, Delay: 5 * time.Millisecond, MaxDelay: 20 * time.Millisecond}})
			if err != nil {
				t.Fatal(err)
			}
			actx, cancel := context.WithTimeout(ctx, 20*time.Second)
			defer cancel()
			l2, err := other.Acquire(actx)
			if err != nil {
				t.Fatalf("another client's Acquire after the holder was black-holed = %v", err)
			}
			taken := time.Now()
			defer func() { _ = other.Release(ctx, l2) }()
			select {
			case at := <-doneAt:
				t.Logf("Done closed %v after another client acquired (negative: before)", at.Sub(taken))
			case <-time.After(bound):
				t.Fatalf("holder's Done still open %v after another client acquired the lock (Err() = %v)", bound, l.Err())
			}
			if err := l.Err(); !errors.Is(err, locks.ErrLockLost) {
				t.Errorf("holder's lease.Err() = %v, want ErrLockLost", err)
			}
		})
	}
}

// unhole resumes forwarding (what was dropped meanwhile stays lost).
func (b *blackhole) unhole() {
	b.mu.Lock()
	b.holed = false
	b.mu.Unlock()
}

// TestRenewalRetriedWithinValidity: one renewal request lost (the link
// black-holed for less than the validity) does not cost the lease: the
// attempt times out well before the validity runs out and the next one
// renews. The client honours context deadlines (ContextTimeoutEnabled), as
// the watchdog's per-attempt deadline needs.
func TestRenewalRetriedWithinValidity(t *testing.T) {
	srv := redistest.Require(t, 1)[0]
	const ttl, every = 3 * time.Second, time.Second
	p := startBlackhole(t, srv.Addr)
	rdb := redis.NewClient(&redis.Options{Addr: p.addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	m := &locks.Metrics{}
	s, err := locks.NewService(rdb, "renew-retried", locks.Options{TTL: ttl, RenewEvery: every, Metrics: m, Retry: locks.Retry{Attempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	acquired := time.Now()
	l, err := s.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p.hole() // the first renewal, RenewEvery later, is sent into the hole
	waitSnapshot(t, m, "a renewal attempt fails or the lease is lost", func(s locks.Snapshot) bool { return s.RenewErrors > 0 || l.Err() != nil })
	p.unhole()
	waitSnapshot(t, m, "a renewal succeeds or the lease is lost", func(s locks.Snapshot) bool { return s.Renewals > 0 || l.Err() != nil })
	// Real time: the key's TTL runs on a real redis-server. Wait past the
	// validity the grant alone gave, which the lost renewal would have left.
	time.Sleep(time.Until(acquired.Add(ttl + 500*time.Millisecond)))
	if err := l.Err(); err != nil {
		t.Fatalf("lease.Err() = %v after one lost renewal request, want nil (metrics %+v)", err, m.Snapshot())
	}
	if got := m.Snapshot().RenewErrors; got == 0 {
		t.Errorf("RenewErrors = 0: no renewal attempt failed, the test proved nothing (metrics %+v)", m.Snapshot())
	}
	if err := s.Release(context.Background(), l); err != nil {
		t.Errorf("Release = %v", err)
	}
}

// waitSnapshot polls m (real time, up to 20s) until cond holds of its
// counters.
func waitSnapshot(t *testing.T, m *locks.Metrics, what string, cond func(locks.Snapshot) bool) {
	t.Helper()
	if !clocktest.Eventually(20*time.Second, func() bool { return cond(m.Snapshot()) }) {
		t.Fatalf("not after 20s: %s (metrics %+v)", what, m.Snapshot())
	}
}
