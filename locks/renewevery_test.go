package locks_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockkit"
)

// TestRenewEveryOnlyWhereItRenews: RenewEvery is refused, naming the field
// and the value, by every constructor whose lock does not renew (it was
// accepted and ignored), and by lockkit.Resolve; the patterns that renew
// and ResolveRenewing take it.
func TestRenewEveryOnlyWhereItRenews(t *testing.T) {
	var nodes []locks.Redis // no call is made: construction only
	for i := range 3 {
		c := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", i+1), ContextTimeoutEnabled: true})
		t.Cleanup(func() { c.Close() })
		nodes = append(nodes, c)
	}
	rdb := nodes[0]
	o := locks.Options{TTL: time.Second, RenewEvery: 300 * time.Millisecond}
	fenced := o
	fenced.Fencing = true
	refuse := map[string]error{
		"Basic":     errOf(locks.NewBasic(rdb, "k", o)),
		"Reentrant": errOf(locks.NewReentrant(rdb, "k", o)),
		"Fenced":    errOf(locks.NewFenced(rdb, "k", o)),
		"Fair":      errOf(locks.NewFair(rdb, "k", o)),
		"FairFence": errOf(locks.NewFair(rdb, "k", fenced)),
		"RWLock":    errOf(locks.NewRWLock(rdb, "k", o)),
		"Semaphore": errOf(locks.NewSemaphore(rdb, "k", 2, o)),
		"MultiLock": errOf(locks.NewMultiLock(rdb, []string{"a", "b"}, o)),
		"Redlock":   errOf(locks.NewRedlock(nodes, "k", o)),
		"Resolve":   errOf(lockkit.Resolve(o)),
	}
	for name, err := range refuse {
		var oe *locks.OptionError
		if !errors.As(err, &oe) || oe.Field != "RenewEvery" || !strings.Contains(err.Error(), "RenewEvery (300ms)") || !strings.Contains(err.Error(), "does not renew") {
			t.Errorf("%s with RenewEvery 300ms: %v, want an *OptionError naming RenewEvery (300ms): the lock does not renew", name, err)
		}
	}
	accept := map[string]error{
		"Watchdog":         errOf(locks.NewWatchdog(rdb, "k", o)),
		"Watchdog fenced":  errOf(locks.NewWatchdog(rdb, "k", fenced)),
		"Service":          errOf(locks.NewService(rdb, "k", o)),
		"Service fenced":   errOf(locks.NewService(rdb, "k", fenced)),
		"RedlockWatchdog":  errOf(locks.NewRedlockWatchdog(nodes, "k", o)),
		"ResolveRenewing":  errOf(lockkit.ResolveRenewing(o)),
		"Basic without it": errOf(locks.NewBasic(rdb, "k", locks.Options{TTL: time.Second})),
	}
	for name, err := range accept {
		if err != nil {
			t.Errorf("%s with RenewEvery 300ms: %v, want it taken", name, err)
		}
	}
}

// errOf is the error of a constructor's (value, error).
func errOf[T any](_ T, err error) error { return err }
