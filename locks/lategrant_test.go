package locks

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/locks/scripts"
)

// slowGrant is a Redis seam whose grant replies arrive late: after each
// successful run of the grant (the script named grant, or SET NX when
// grant is "SETNX") the holder's clock moves on by lag (the server's does
// not), as if the reply had spent that long on the way back. Other
// replies, the give-back's among them, come at once.
type slowGrant struct {
	*redis.Client
	clk   *clocktest.ManualClock
	lag   time.Duration
	grant string
}

// lateIf moves the clock on if cmd succeeded and was the grant.
func (s slowGrant) lateIf(isGrant bool, err error) {
	if isGrant && err == nil {
		_ = s.clk.Advance(s.lag)
	}
}

func (s slowGrant) Eval(ctx context.Context, src string, keys []string, args ...any) *redis.Cmd {
	cmd := s.Client.Eval(ctx, src, keys, args...)
	s.lateIf(src == scripts.All()[s.grant], cmd.Err())
	return cmd
}

func (s slowGrant) EvalSha(ctx context.Context, sha string, keys []string, args ...any) *redis.Cmd {
	cmd := s.Client.EvalSha(ctx, sha, keys, args...)
	s.lateIf(s.grant != "SETNX" && sha == script(s.grant).Hash(), cmd.Err())
	return cmd
}

func (s slowGrant) SetNX(ctx context.Context, key string, value any, ttl time.Duration) *redis.BoolCmd {
	cmd := s.Client.SetNX(ctx, key, value, ttl)
	s.lateIf(s.grant == "SETNX", cmd.Err())
	return cmd
}

// TestLateGrantGivenBack: a grant whose reply comes after the validity it
// would leave has run out fails with ErrNotAcquired and one message, and
// is given back, so that the lock is free at once, in every pattern that
// grants on one node.
func TestLateGrantGivenBack(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kind  Kind
		grant string // the grant's script, or SETNX
		key   string // the key Inspect reads
		new   func(r Redis, name string, o Options) (Locker, error)
	}{
		{"Basic", KindBasic, "SETNX", "", func(r Redis, n string, o Options) (Locker, error) { return NewBasic(r, n, o) }},
		{"BasicToken", KindBasic, "token_acquire", "", func(r Redis, n string, o Options) (Locker, error) {
			o.Token = "restartable"
			return NewBasic(r, n, o)
		}},
		{"Fenced", KindFenced, "fenced_acquire", "", func(r Redis, n string, o Options) (Locker, error) { return NewFenced(r, n, o) }},
		{"Reentrant", KindReentrant, "reentrant_acquire", "", func(r Redis, n string, o Options) (Locker, error) { return NewReentrant(r, n, o) }},
		{"Fair", KindFair, "fair_acquire", "", func(r Redis, n string, o Options) (Locker, error) { return NewFair(r, n, o) }},
		{"Semaphore", KindSemaphore, "sem_acquire", "", func(r Redis, n string, o Options) (Locker, error) { return NewSemaphore(r, n, 2, o) }},
		{"RWLockReader", KindRW, "rw_rlock", "", func(r Redis, n string, o Options) (Locker, error) {
			rw, err := NewRWLock(r, n, o)
			return extMust(rw, err).Reader(), err
		}},
		{"RWLockWriter", KindRW, "rw_lock", "", func(r Redis, n string, o Options) (Locker, error) {
			rw, err := NewRWLock(r, n, o)
			return extMust(rw, err).Writer(), err
		}},
		{"MultiLock", KindBasic, "multi_acquire", "{m}:b", func(r Redis, n string, o Options) (Locker, error) {
			return NewMultiLock(r, []string{"{m}:a", "{m}:b"}, o)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := extMini(t)
			clk := clocktest.NewManualClock(extEpoch, nil)
			t.Cleanup(clk.Stop)
			o := Options{TTL: time.Second, Clock: clk, Rand: NewSeededRand(1, tc.name)}
			name := extName(t)
			l := extMust(tc.new(slowGrant{e.client(t), clk, o.TTL, tc.grant}, name, o))
			_, err := l.Acquire(context.Background())
			if !errors.Is(err, ErrNotAcquired) {
				t.Fatalf("Acquire with a reply later than the TTL = %v, want ErrNotAcquired", err)
			}
			if msg := err.Error(); strings.Count(msg, "granted after its validity ran out") != 1 {
				t.Errorf("Acquire's error = %q, want it to say once that it was granted after its validity ran out", msg)
			}
			key := name
			if tc.key != "" {
				key = tc.key
			}
			if info := extInspect(t, e.client(t), key, tc.kind); info.Held() {
				t.Errorf("after the late grant, Inspect(%q) = %+v; want it given back", key, info)
			}
		})
	}
}
