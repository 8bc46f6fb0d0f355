package lockstest

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

// recorder is a testing.TB that records failures instead of failing, so a
// property can be shown to fail on a broken locker. Fatal ends the calling
// goroutine, as it does on a real T.
type recorder struct {
	testing.TB
	mu       sync.Mutex
	failures []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) { r.add(fmt.Sprintf(format, args...)) }

func (r *recorder) Fatalf(format string, args ...any) {
	r.add(fmt.Sprintf(format, args...))
	runtime.Goexit()
}

func (r *recorder) add(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures = append(r.failures, msg)
}

// failures runs the named property over env and returns what it reported.
func failures(t *testing.T, env Env, name string) []string {
	t.Helper()
	i := slices.IndexFunc(properties, func(p property) bool { return p.name == name })
	if i < 0 {
		t.Fatalf("no property %q", name)
	}
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		properties[i].check(newRun(rec, env, name))
	}()
	<-done
	return rec.failures
}

func basic(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error) {
	return locks.NewBasic(nodes[0], key, o)
}

// perClientKey breaks mutual exclusion: every client locks its own key.
func perClientKey() Factory {
	var n atomic.Int64
	return func(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error) {
		return basic(nodes, fmt.Sprintf("%s#%d", key, n.Add(1)), o)
	}
}

// blindRelease deletes the key on Release without checking the owner, the
// seeds' first pitfall.
type blindRelease struct {
	locks.Locker
	rdb *redis.Client
}

func (b blindRelease) Release(ctx context.Context, l *locks.Lease) error {
	return b.rdb.Del(ctx, l.Key).Err()
}

func unchecked(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error) {
	l, err := basic(nodes, key, o)
	return blindRelease{l, nodes[0].(*redis.Client)}, err
}

// lenient breaks option validation: a zero TTL is replaced by a default.
func lenient(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error) {
	if o.TTL == 0 {
		o.TTL = time.Second
	}
	return basic(nodes, key, o)
}

// TestPropertiesCatchBrokenLockers proves the properties can fail: each
// broken locker, or a correct one claiming what it does not do, fails the
// property aimed at it, with a message that names the call. (The watchdog
// properties that wait out a real-time bound before failing are left out,
// to keep this fast.)
func TestPropertiesCatchBrokenLockers(t *testing.T) {
	for _, tc := range []struct {
		property string
		new      Factory
		caps     Caps
		want     string // in the first failure
	}{
		{"MutualExclusion", perClientKey(), Caps{}, "Acquire(client 2) while client 1 holds the lock"},
		{"OwnerCheckedRelease", unchecked, Caps{}, "Release(client 1) of a lease whose key client 2 now holds = <nil>, want ErrNotHeld"},
		{"OptionValidation", lenient, Caps{}, "New(TTL 0)"},
		{"Reentry", basic, Caps{Reentrant: true}, "Acquire(client 1) #2"},
		{"WatchdogOutlivesTTL", basic, Caps{Watchdog: true}, "Acquire(client 2) after 1×TTL = <nil>"},
		{"WatchdogCutTTL", basic, Caps{Watchdog: true}, "5/6 TTL after the cut to 750ms, want > 0: no renewal restored it"},
		{"FenceIncreases", basic, Caps{Fenced: true}, "lease.Fence = 0, want > 0"},
	} {
		t.Run(tc.property, func(t *testing.T) {
			env := Env{Backend: StartMiniredis(t, 1), New: tc.new, Caps: tc.caps}
			got := failures(t, env, tc.property)
			if len(got) == 0 {
				t.Fatalf("%s passed a broken locker", tc.property)
			}
			if !strings.Contains(got[0], tc.want) {
				t.Errorf("%s failed with %q, want it to say %q", tc.property, got[0], tc.want)
			}
		})
	}
}

// TestPropertiesPassCorrectLocker is the control: the same harness reports
// nothing for a correct Basic.
func TestPropertiesPassCorrectLocker(t *testing.T) {
	for _, name := range []string{"MutualExclusion", "OwnerCheckedRelease", "OptionValidation", "ExpiredLease"} {
		env := Env{Backend: StartMiniredis(t, 1), New: basic}
		if got := failures(t, env, name); len(got) != 0 {
			t.Errorf("%s failed a correct Basic: %q", name, got)
		}
	}
}
