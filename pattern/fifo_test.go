package pattern_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// TestFIFOMarksTheQueueingPatterns: Pattern.FIFO marks exactly the
// registered patterns whose waiters queue on the server. With the lock
// taken, two waiters that have each polled a while both leave their
// tokens in Redis (a queue entry) for those patterns, and for no other.
func TestFIFOMarksTheQueueingPatterns(t *testing.T) {
	for _, p := range pattern.All() {
		t.Run(p.Name, func(t *testing.T) {
			if got := waitersQueue(t, p); got != p.FIFO {
				t.Errorf("%s: waiters queue on the server = %v, but FIFO = %v", p.Name, got, p.FIFO)
			}
		})
	}
}

// waitersQueue takes every holding p allows, starts two waiters one
// after the other, and reports whether both waiters' tokens are in Redis
// once each has sent 20 commands. A waiter granted beside the holders
// (clients that share one token) never waits, so nothing of it queues.
func waitersQueue(t *testing.T, p pattern.Pattern) bool {
	servers := make([]*miniredis.Miniredis, p.Nodes)
	for i := range servers {
		servers[i] = miniredis.RunT(t)
	}
	ctx := context.Background()
	release, unbounded := fillHoldings(t, p, servers)
	defer release()
	if unbounded {
		return false // every client is granted (clients that share one token): nobody waits
	}
	var tokens []*tokenLog
	var wg sync.WaitGroup
	wctx, cancel := context.WithCancel(ctx)
	defer wg.Wait()
	defer cancel()
	for range 2 {
		var sent atomic.Int64
		log := &tokenLog{}
		w := newClient(t, p, servers, &sent, log, locks.Retry{Attempts: -1, Delay: time.Millisecond, MaxDelay: 4 * time.Millisecond})
		var granted atomic.Bool
		wg.Go(func() {
			_, err := w.Acquire(wctx)
			granted.Store(err == nil)
		})
		if !clocktest.Eventually(10*time.Second, func() bool { return sent.Load() >= 20 || granted.Load() }) {
			t.Fatalf("a waiter sent %d commands in 10s, want 20", sent.Load())
		}
		if granted.Load() {
			return false // it never waited (a variant whose clients share one token)
		}
		tokens = append(tokens, log)
	}
	var dump strings.Builder
	for _, m := range servers {
		dump.WriteString(m.Dump())
	}
	for _, log := range tokens {
		if !log.anyIn(dump.String()) {
			return false
		}
	}
	return true
}

// fillHoldings takes holdings with one client each until one is refused
// (a semaphore's permits, or one holder), and returns their release. It
// reports unbounded when four clients hold at once (a variant whose
// clients share one token: a node takes another client's key for the
// client's own).
func fillHoldings(t *testing.T, p pattern.Pattern, servers []*miniredis.Miniredis) (release func(), unbounded bool) {
	ctx := context.Background()
	var held []func()
	release = func() {
		for _, r := range held {
			r()
		}
	}
	for range 4 {
		var sent atomic.Int64
		h := newClient(t, p, servers, &sent, &tokenLog{}, locks.Retry{Attempts: 1})
		l, err := h.Acquire(ctx)
		if err != nil {
			return release, false
		}
		held = append(held, func() { _ = h.Release(ctx, l) })
	}
	if !p.Broken {
		t.Fatalf("%s: four clients hold at once; want a refusal", p.Name)
	}
	return release, true
}

// newClient builds one client of p over its own connections to servers,
// counting the commands it sends and logging the tokens it draws.
func newClient(t *testing.T, p pattern.Pattern, servers []*miniredis.Miniredis, sent *atomic.Int64, log *tokenLog, retry locks.Retry) locks.Locker {
	t.Helper()
	nodes := make([]locks.Redis, len(servers))
	for i, m := range servers {
		c := redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
		c.AddHook(countHook{sent})
		t.Cleanup(func() { c.Close() })
		nodes[i] = c
	}
	l, err := p.New(nodes, "k", locks.Options{TTL: 10 * time.Second, Rand: log, Retry: retry})
	if err != nil {
		t.Fatalf("%s: New = %v", p.Name, err)
	}
	return l
}

// tokenLog is a locks.Rand that remembers the tokens it handed out.
type tokenLog struct {
	locks.CryptoRand
	mu     sync.Mutex
	tokens []string
}

func (r *tokenLog) Token() string {
	tok := r.CryptoRand.Token()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tokens = append(r.tokens, tok)
	return tok
}

// anyIn reports whether some token of the log occurs in s.
func (r *tokenLog) anyIn(s string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, tok := range r.tokens {
		if strings.Contains(s, tok) {
			return true
		}
	}
	return false
}

// countHook counts the commands a client sends.
type countHook struct{ n *atomic.Int64 }

func (h countHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h countHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmd)
	}
}

func (h countHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.n.Add(int64(len(cmds)))
		return next(ctx, cmds)
	}
}
