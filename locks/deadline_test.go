package locks_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// deadlineTTL is long beside the callers' deadline: an Acquire that waited
// for its own clean-up (bounded by the TTL) would overrun by about this.
const deadlineTTL = 6 * time.Second

// deadlinePatterns are the patterns whose Acquire owes a clean-up when a
// grant's reply does not come: the undo of an entry the grant may have
// left, or leaving a queue or an intent.
var deadlinePatterns = []struct {
	name string
	keys func(name string) []string // what an attempt may leave, and its clean-up removes
	new  func(r locks.Redis, key string, o locks.Options) (locks.Locker, error)
}{
	{"Reentrant", func(n string) []string { return []string{n} }, func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		return locks.NewReentrant(r, k, o)
	}},
	{"Service", func(n string) []string { return []string{n} },
		func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewService(r, k, o) }},
	{"Fair", func(n string) []string { lock, queue, _, _ := locks.FairKeys(n); return []string{lock, queue} },
		func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewFair(r, k, o) }},
	{"RWLockWriter", func(n string) []string { w, _, intent, _ := locks.RWKeys(n); return []string{w, intent} }, func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		rw, err := locks.NewRWLock(r, k, o)
		if err != nil {
			return nil, err
		}
		return rw.Writer(), nil
	}},
}

// deadlineFault is a server that does not answer: the client a test
// talks to it with, made after the fault began.
type deadlineFault struct {
	name string
	dial func(t *testing.T) *redis.Client
	// resume, if set, ends the fault (the server answers again)
	resume func(t *testing.T)
}

func deadlineFaults() []deadlineFault {
	return []deadlineFault{
		// A refused address; the client retries each command (honouring
		// the context between retries) for longer than the TTL.
		{"refused", func(t *testing.T) *redis.Client {
			m := miniredis.RunT(t)
			addr := m.Addr()
			m.Close()
			return redis.NewClient(&redis.Options{Addr: addr, DialerRetries: 1,
				MaxRetries: 100, MinRetryBackoff: 50 * time.Millisecond, MaxRetryBackoff: 100 * time.Millisecond})
		}, nil},
		// A link that forwards nothing (to miniredis), with a client that
		// honours context deadlines.
		{"blackhole", func(t *testing.T) *redis.Client {
			m := miniredis.RunT(t)
			p := startBlackhole(t, m.Addr())
			p.hole()
			return redis.NewClient(&redis.Options{Addr: p.addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
		}, nil},
		// A redis-server stopped by SIGSTOP, with a client that honours
		// context deadlines.
		{"stopped", func(t *testing.T) *redis.Client {
			return stoppedServer(t, &redis.Options{DialerRetries: 1, ContextTimeoutEnabled: true})
		}, resumeServer},
		// The same with go-redis's defaults, which ignore the deadline
		// while reading a reply (ReadTimeout 3s, retried): the client alone
		// overruns; the lock must add nothing to it.
		{"stopped-defaults", func(t *testing.T) *redis.Client {
			return stoppedServer(t, &redis.Options{DialerRetries: 1})
		}, resumeServer},
	}
}

// stoppedServer starts a redis-server, connects o's client to it, stops the
// server with SIGSTOP (resumed when the test ends) and returns the client.
func stoppedServer(t *testing.T, o *redis.Options) *redis.Client {
	srv := redistest.Require(t, 1)[0]
	o.Addr = srv.Addr
	c := redis.NewClient(o)
	if err := c.Ping(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(srv.Pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(srv.Pid(), syscall.SIGCONT) })
	stopped[t.Name()] = srv
	t.Cleanup(func() { delete(stopped, t.Name()) })
	return c
}

// stopped is the server each running test stopped (the tests run one at a
// time).
var stopped = map[string]*redistest.Server{}

// resumeServer resumes the server the test stopped.
func resumeServer(t *testing.T) {
	if err := syscall.Kill(stopped[t.Name()].Pid(), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
}

// TestAcquireKeepsTheDeadline: against a server that does not answer, an
// Acquire with a deadline returns once the client gives up the call in
// flight — by the deadline with a client that honours it — and does not
// wait on for the clean-up it still owes (that runs in the background,
// bounded by the TTL). The bound is generous: the client's own time for
// one call with the same deadline (measured first) plus half the TTL; an
// Acquire that waited for its clean-up would overrun by the TTL. Once a
// stopped server resumes (and runs the requests it was sent, the
// unanswered grant among them), the clean-up left running removes what
// the attempts wrote, well before the TTL would.
func TestAcquireKeepsTheDeadline(t *testing.T) {
	const deadline = 2 * time.Second
	for _, f := range deadlineFaults() {
		for _, p := range deadlinePatterns {
			t.Run(f.name+"/"+p.name, func(t *testing.T) {
				rdb := f.dial(t)
				t.Cleanup(func() { rdb.Close() })
				own := clientCallTime(rdb, deadline)
				name := "deadline:" + p.name
				// The refused and stopped-defaults clients leave ContextTimeoutEnabled
				// false on purpose: the lock must add nothing to their own overrun.
				lk, err := p.new(rdb, name, locks.Options{TTL: deadlineTTL,
					Retry:                       locks.Retry{Attempts: -1, Delay: 20 * time.Millisecond, MaxDelay: 100 * time.Millisecond},
					AllowContextTimeoutDisabled: !rdb.Options().ContextTimeoutEnabled})
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), deadline)
				defer cancel()
				begin := time.Now()
				l, err := lk.Acquire(ctx)
				took := time.Since(begin)
				if err == nil {
					t.Fatalf("Acquire from a server that does not answer = %v, nil", l)
				}
				t.Logf("Acquire with a %v deadline returned after %v (the client's own call: %v): %v", deadline, took, own, err)
				if bound := max(own, deadline) + deadlineTTL/2; took > bound {
					t.Errorf("Acquire with a %v deadline took %v, want at most %v (the client's own %v + TTL/2): it waited for its clean-up",
						deadline, took, bound, own)
				}
				if f.resume != nil {
					f.resume(t)
					resumed := time.Now()
					if !clocktest.Eventually(deadlineTTL/2, func() bool { return rdb.Exists(context.Background(), p.keys(name)...).Val() == 0 }) {
						t.Errorf("keys %v still there %v after the server resumed: the clean-up did not run", p.keys(name), time.Since(resumed))
					}
				}
			})
		}
	}
}

// clientCallTime is how long one script call through rdb takes to fail
// with a context of deadline d: the client's own overrun, which the lock
// cannot shorten.
func clientCallTime(rdb *redis.Client, d time.Duration) time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	begin := time.Now()
	_ = rdb.Eval(ctx, "return 1", []string{"deadline:probe"}).Err()
	return time.Since(begin)
}
