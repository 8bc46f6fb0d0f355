package bench_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/bench"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest/redistest"
	"github.com/locksim/locksim/locks/scripts"
)

// handoffSubjects are the patterns whose refused attempt reads the
// holding's remaining TTL, with the key their lock lives at.
var handoffSubjects = []struct {
	name string
	key  func(name string) string
	new  func(r locks.Redis, key string, o locks.Options) (locks.Locker, error)
}{
	{"reentrant", func(n string) string { return n },
		func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			return locks.NewReentrant(r, k, o)
		}},
	{"service", func(n string) string { return n },
		func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewService(r, k, o) }},
	{"fenced", locks.FencedLockKey,
		func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewFenced(r, k, o) }},
	{"rwlock", func(n string) string { w, _, _, _ := locks.RWKeys(n); return w },
		func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			rw, err := locks.NewRWLock(r, k, o)
			if err != nil {
				return nil, err
			}
			return rw.Writer(), nil
		}},
}

// blindSeam hides the remaining TTL a refused acquisition script returns
// (minus its PTTL: it answers 0 instead, as the scripts did before they
// returned it), so that a waiter sleeps its whole backoff: the hand-off
// before it.
type blindSeam struct {
	*redis.Client
	shas map[string]bool // the acquisition scripts' SHA1s
}

func newBlindSeam(c *redis.Client) blindSeam {
	b := blindSeam{c, map[string]bool{}}
	for _, name := range []string{"reentrant_acquire", "reentrant_fenced_acquire", "fenced_acquire", "rw_lock", "rw_rlock"} {
		b.shas[redis.NewScript(scripts.All()[name]).Hash()] = true
	}
	return b
}

func (b blindSeam) EvalSha(ctx context.Context, sha string, keys []string, args ...any) *redis.Cmd {
	return b.hide(sha, b.Client.EvalSha(ctx, sha, keys, args...))
}

func (b blindSeam) Eval(ctx context.Context, src string, keys []string, args ...any) *redis.Cmd {
	return b.hide(redis.NewScript(src).Hash(), b.Client.Eval(ctx, src, keys, args...))
}

func (b blindSeam) hide(sha string, cmd *redis.Cmd) *redis.Cmd {
	if !b.shas[sha] || cmd.Err() != nil {
		return cmd
	}
	switch v := cmd.Val().(type) {
	case int64:
		cmd.SetVal(max(v, 0))
	case []any:
		if n, ok := v[0].(int64); ok && n < 0 {
			v[0] = int64(0)
		}
	}
	return cmd
}

// BenchmarkHandOff measures how late a waiter takes a lock whose holder
// vanished (never released, never renewed), on a real redis-server: the
// time from the key's expiry (PEXPIRETIME, read after the holder's grant)
// to the waiter's grant, per pattern (RWLock: a writer waiting on a
// writer), with the default backoff (10ms
// doubling to 160ms) and a 500ms TTL. "pttl" is the lock as it is (a
// waiter polls once as the holding its refused attempt met runs out, see
// locks/waitexpiry.go); "blind"
// is the same lock with that PTTL hidden by the seam, as the hand-off was
// before. The two run interleaved, their order alternating every round;
// it logs each one's median latency and the median of the per-round
// ratios pttl ÷ blind, with 95% intervals. About 20s: run it with
// -benchtime 1x.
func BenchmarkHandOff(b *testing.B) {
	if !redistest.Available() {
		b.Skip("redis-server not installed")
	}
	srv := redistest.Require(b, 1)[0]
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, DialerRetries: 1, ContextTimeoutEnabled: true})
	b.Cleanup(func() { rdb.Close() })
	const rounds, ttl = 12, 500 * time.Millisecond
	variants := []struct {
		name string
		seam locks.Redis
	}{{"pttl", rdb}, {"blind", newBlindSeam(rdb)}}
	for b.Loop() {
		var sb strings.Builder
		fmt.Fprintf(&sb, "%-10s %26s %26s %26s\n", "pattern", "pttl: ms after expiry", "blind: ms after expiry", "pttl ÷ blind")
		for _, p := range handoffSubjects {
			lat := map[string][]float64{}
			var ratio []float64
			for r := range rounds {
				got := map[string]float64{}
				for i := range variants {
					v := variants[(i+r)%len(variants)]
					ms, err := handOff(rdb, v.seam, p.new, p.key, fmt.Sprintf("handoff:%s:%s:%d", p.name, v.name, r), ttl)
					if err != nil {
						b.Fatalf("%s %s: %v", p.name, v.name, err)
					}
					got[v.name] = ms
					lat[v.name] = append(lat[v.name], ms)
				}
				if got["blind"] > 0 {
					ratio = append(ratio, got["pttl"]/got["blind"])
				}
			}
			fmt.Fprintf(&sb, "%-10s %26s %26s %26s\n", p.name, bench.MedianInterval(lat["pttl"]),
				bench.MedianInterval(lat["blind"]), bench.MedianInterval(ratio))
		}
		b.Logf("hand-off after a vanished holder's expiry, TTL %v, %d interleaved rounds:\n%s", ttl, rounds, sb.String())
	}
}

// handOff takes name's lock with a holder that then vanishes, and returns
// how many ms after the key's expiry a waiter over seam is granted it.
func handOff(rdb *redis.Client, seam locks.Redis, newLocker func(locks.Redis, string, locks.Options) (locks.Locker, error),
	key func(string) string, name string, ttl time.Duration) (float64, error) {
	ctx := context.Background()
	gone := redis.NewClient(&redis.Options{Addr: rdb.Options().Addr, DialerRetries: 1, ContextTimeoutEnabled: true})
	holder, err := newLocker(gone, name, locks.Options{TTL: ttl})
	if err != nil {
		return 0, err
	}
	l, err := holder.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	gone.Close() // vanished: no renewal, no release
	at, err := rdb.PExpireTime(ctx, key(name)).Result()
	if err != nil || at <= 0 {
		return 0, fmt.Errorf("PEXPIRETIME %s = %v, %v", key(name), at, err)
	}
	w, err := newLocker(seam, name, locks.Options{TTL: ttl, Retry: locks.Retry{Attempts: -1}})
	if err != nil {
		return 0, err
	}
	wctx, cancel := context.WithTimeout(ctx, 10*ttl)
	defer cancel()
	wl, err := w.Acquire(wctx)
	granted := time.Now()
	if err != nil {
		return 0, err
	}
	<-l.Done()
	_ = w.Release(ctx, wl)
	return float64(granted.Sub(time.UnixMilli(at.Milliseconds())).Microseconds()) / 1000, nil
}
