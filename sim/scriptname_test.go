package sim_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockkit"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// The scripts of a user's Locker: the acquire named with
// pattern.NameScript, the release left unnamed.
var (
	userAcquire = pattern.NameScript("userlock_acquire", redis.NewScript(
		`if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end return 0`))
	userRelease = redis.NewScript(
		`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0 -- userlock`)
)

// userLock is a lock written outside package locks, on the public seams
// only, that runs scripts of its own.
type userLock struct {
	r    locks.Redis
	key  string
	o    locks.Options
	mu   sync.Mutex
	held map[*locks.Lease]*lockkit.Holding
}

func (l *userLock) Acquire(ctx context.Context) (*locks.Lease, error) {
	token, start := l.o.Rand.Token(), l.o.Clock.Now()
	n, err := userAcquire.Run(ctx, l.r, []string{l.key}, token, l.o.TTL.Milliseconds()).Int64()
	if err != nil {
		return nil, fmt.Errorf("userlock: %w", err)
	}
	if n == 0 {
		return nil, locks.ErrNotAcquired
	}
	lease, g := lockkit.NewLease(lockkit.LeaseSpec{Clock: l.o.Clock, Key: l.key, Token: token, Fence: 0, Count: 1, Start: start, Valid: l.o.TTL - l.o.Clock.Since(start) - 2*time.Millisecond})
	l.mu.Lock()
	l.held[lease] = g
	l.mu.Unlock()
	return lease, nil
}

func (l *userLock) Release(ctx context.Context, lease *locks.Lease) error {
	l.mu.Lock()
	g := l.held[lease]
	delete(l.held, lease)
	l.mu.Unlock()
	if g == nil {
		return locks.ErrNotHeld
	}
	n, err := userRelease.Run(ctx, l.r, []string{l.key}, lease.Token).Int64()
	if err != nil || n == 0 {
		g.End(locks.ErrLockLost)
		return locks.ErrNotHeld
	}
	g.End(locks.ErrReleased)
	return nil
}

// TestUserScriptNamedInTrace: a script a user's Locker runs shows in the
// trace under the name pattern.NameScript gave it, as EVALSHA and as the
// EVAL that follows a NOSCRIPT; one it did not name shows as script:SHA.
// (Before NameScript, the acquire showed as script:<sha> too.)
func TestUserScriptNamedInTrace(t *testing.T) {
	p := pattern.Pattern{Name: "userlock", Nodes: 1, Claims: pattern.Claims{Mutex: true},
		New: pattern.Single(func(r locks.Redis, key string, o locks.Options) (locks.Locker, error) {
			return &userLock{r: r, key: key, o: o, held: map[*locks.Lease]*lockkit.Holding{}}, nil
		})}
	sc, err := scenario.ParseString("start clients=2 ttl=100ms duration=300ms\n")
	if err != nil {
		t.Fatal(err)
	}
	var trace bytes.Buffer
	if _, err := sim.Run(sim.Config{Pattern: p, Scenario: sc, Seed: 1, Trace: &trace}); err != nil {
		t.Fatal(err)
	}
	tr := trace.String()
	for _, want := range []string{"EVALSHA userlock_acquire ", "EVAL userlock_acquire ", "EVALSHA script:" + userRelease.Hash()[:8] + " "} {
		if !strings.Contains(tr, want) {
			t.Errorf("trace has no %q:\n%s", want, head(tr, 40))
		}
	}
	if hashed := "script:" + userAcquire.Hash()[:8]; strings.Contains(tr, hashed) {
		t.Errorf("trace shows the named acquire as %s:\n%s", hashed, head(tr, 40))
	}
}

func head(s string, lines int) string {
	ls := strings.SplitN(s, "\n", lines+1)
	if len(ls) > lines {
		ls = ls[:lines]
	}
	return strings.Join(ls, "\n")
}
