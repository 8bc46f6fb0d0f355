package locksimtest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockkit"
	"github.com/locksim/locksim/locksimtest"
	"github.com/locksim/locksim/pattern"
)

// namedAcquire is a user lock's own script, named; namedRelease is left
// unnamed.
var (
	namedAcquire = pattern.NameScript("harness_user_acquire", redis.NewScript(
		`if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end return 0`))
	unnamedRelease = redis.NewScript(
		`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0 -- harness`)
)

// scriptLock is SET NX PX by a script of its own, on the public seams.
type scriptLock struct {
	r    locks.Redis
	key  string
	o    locks.Options
	mu   sync.Mutex
	held map[*locks.Lease]*lockkit.Holding
}

func (l *scriptLock) Acquire(ctx context.Context) (*locks.Lease, error) {
	token, start := l.o.Rand.Token(), l.o.Clock.Now()
	n, err := namedAcquire.Run(ctx, l.r, []string{l.key}, token, l.o.TTL.Milliseconds()).Int64()
	if err != nil {
		return nil, err
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

func (l *scriptLock) Release(ctx context.Context, lease *locks.Lease) error {
	l.mu.Lock()
	g := l.held[lease]
	delete(l.held, lease)
	l.mu.Unlock()
	if g == nil {
		return locks.ErrNotHeld
	}
	n, err := unnamedRelease.Run(ctx, l.r, []string{l.key}, lease.Token).Int64()
	if err != nil || n == 0 {
		g.End(locks.ErrLockLost)
		return locks.ErrNotHeld
	}
	g.End(locks.ErrReleased)
	return nil
}

// TestCounterexampleTraceNamesUserScripts: the trace of the counterexample
// the harness writes for a user lock shows its named script by name.
func TestCounterexampleTraceNamesUserScripts(t *testing.T) {
	p := pattern.Pattern{Name: "scriptlock", Nodes: 1, Claims: pattern.Claims{Mutex: true},
		New: pattern.Single(func(r locks.Redis, key string, o locks.Options) (locks.Locker, error) {
			return &scriptLock{r: r, key: key, o: o, held: map[*locks.Lease]*lockkit.Holding{}}, nil
		})}
	dir := t.TempDir()
	sc := filepath.Join(dir, "pause.txt")
	write(t, sc, "scenario pause\nstart clients=2 ttl=100ms duration=1s\npause c1 on=write for=150ms\n")
	rep, err := locksimtest.Check(p, locksimtest.Options{Seeds: 1, Dir: dir, Scenarios: []string{sc}, NoBuiltins: true})
	if err != nil {
		t.Fatal(err)
	}
	f := findingFor(t, rep, "pause", "mutex")
	data, err := os.ReadFile(f.Trace)
	if err != nil {
		t.Fatal(err)
	}
	tr := string(data)
	for _, want := range []string{"EVALSHA harness_user_acquire lock ", "EVALSHA script:" + unnamedRelease.Hash()[:8] + " lock "} {
		if !strings.Contains(tr, want) {
			t.Errorf("counterexample trace %s has no %q", f.Trace, want)
		}
	}
	if strings.Contains(tr, "script:"+namedAcquire.Hash()[:8]) {
		t.Errorf("counterexample trace %s shows the named acquire by its SHA1", f.Trace)
	}
}
