package locks_test

import (
	"testing"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest"
)

// pattern is one of the patterns as the conformance suite sees it.
type pattern struct {
	name  string
	nodes int
	caps  lockstest.Caps
	new   lockstest.Factory
}

// redlockNodes is the Redlock node count the suite runs with.
const redlockNodes = 5

func single(f func(r locks.Redis, key string, o locks.Options) (locks.Locker, error)) lockstest.Factory {
	return func(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error) {
		return f(nodes[0], key, o)
	}
}

var patterns = []pattern{
	{"Basic", 1, lockstest.Caps{Extender: true, TTL: true},
		single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewBasic(r, k, o) })},
	{"Reentrant", 1, lockstest.Caps{Reentrant: true, Extender: true, TTL: true},
		single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			return locks.NewReentrant(r, k, o)
		})},
	{"Watchdog", 1, lockstest.Caps{Watchdog: true, TTL: true},
		single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			return locks.NewWatchdog(r, k, o)
		})},
	{"Redlock", redlockNodes, lockstest.Caps{Redlock: true, Extender: true, TTL: true},
		func(nodes []locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			return locks.NewRedlock(nodes, k, o)
		}},
	{"RedlockWatchdog", redlockNodes, lockstest.Caps{Redlock: true, Watchdog: true, Extender: true, Resets: true, TTL: true},
		func(nodes []locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			return locks.NewRedlockWatchdog(nodes, k, o)
		}},
	{"Service", 1, lockstest.Caps{Reentrant: true, Watchdog: true, TTL: true},
		single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewService(r, k, o) })},
	{"Fenced", 1, lockstest.Caps{Fenced: true, Extender: true, TTL: true},
		single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewFenced(r, k, o) })},
	{"WatchdogFenced", 1, lockstest.Caps{Watchdog: true, Fenced: true, TTL: true},
		single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			o.Fencing = true
			return locks.NewWatchdog(r, k, o)
		})},
	{"FairFenced", 1, lockstest.Caps{Fenced: true, Extender: true, TTL: true},
		single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			o.Fencing = true
			return locks.NewFair(r, k, o)
		})},
	// The suite plays a vanished lock by deleting the lease's key; a
	// MultiLock runs it on one key (multilock_test.go covers several).
	{"MultiLock", 1, lockstest.Caps{Extender: true, TTL: true},
		single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			return locks.NewMultiLock(r, []string{k}, o)
		})},
	{"ServiceFenced", 1, lockstest.Caps{Reentrant: true, Watchdog: true, Fenced: true, TTL: true},
		single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			o.Fencing = true
			return locks.NewService(r, k, o)
		})},
}

// TestConformanceMiniredis runs the suite for every pattern over embedded
// miniredis servers on manual time (Redlock over five of them).
func TestConformanceMiniredis(t *testing.T) {
	for _, p := range patterns {
		t.Run(p.name, func(t *testing.T) {
			b := lockstest.StartMiniredis(t, p.nodes)
			lockstest.Run(t, lockstest.Env{Backend: b, New: p.new, Nodes: p.nodes, Caps: p.caps})
		})
	}
}

// TestConformanceRedisServer runs the suite for every pattern over real
// redis-server processes on real time: five servers shared by all
// patterns, flushed before each property. A node goes down by killing its
// process. Without redis-server the test is skipped, or fails under CI=true.
func TestConformanceRedisServer(t *testing.T) {
	b := lockstest.StartRedisServers(t, redlockNodes)
	for _, p := range patterns {
		t.Run(p.name, func(t *testing.T) {
			lockstest.Run(t, lockstest.Env{Backend: b, New: p.new, Nodes: p.nodes, Caps: p.caps})
		})
	}
}
