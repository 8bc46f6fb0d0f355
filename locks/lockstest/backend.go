package lockstest

import (
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/locks"
)

// Backend runs the Redis nodes a suite uses and moves time for them. Two
// come with the package: Miniredis (embedded servers, manual time) and
// RedisServers (real redis-server processes, real time).
type Backend interface {
	// Nodes is the number of nodes.
	Nodes() int
	// Connect opens one client's own connections, one per node, closed
	// when t ends.
	Connect(t testing.TB) []locks.Redis
	// Admin is a connection to node i for looking at keys, or tampering
	// with them, behind the lockers' backs.
	Admin(t testing.TB, node int) *redis.Client
	// Clock is the clock lockers on this backend must run on.
	Clock() clock.Clock
	// TTL is a lease time suited to the backend: long enough for its
	// latencies under load, short enough to wait out a few times.
	TTL() time.Duration
	// Advance makes d pass for the nodes' TTLs and for Clock, letting
	// background work (watchdogs) run meanwhile.
	Advance(t testing.TB, d time.Duration)
	// Down takes node i down: requests to it fail quickly.
	Down(t testing.TB, node int)
	// Up brings node i back. It may come back empty or at a new address:
	// only connections opened after Up are sure to reach it.
	Up(t testing.TB, node int)
	// Reset deletes every key on every node that is up.
	Reset(t testing.TB)
}

// Factory builds one client's locker for key over that client's own
// connections to the nodes, in node order. The suite calls it once per
// independent client, so per-locker state (a reentrant owner) is per client.
// It must pass the options through: the suite sets TTL, Retry, RenewEvery
// and DriftFactor, and Clock to the backend's.
type Factory func(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error)

// Caps are the properties a pattern claims beyond mutual exclusion and
// owner-checked release; each selects the properties that apply.
type Caps struct {
	Reentrant bool // the same locker re-enters; Count goes 1, 2, 3
	Watchdog  bool // renewed while held; the holder learns of loss
	Fenced    bool // every lease carries a strictly increasing fence
	Redlock   bool // a quorum of Env.Nodes nodes; ErrQuorum when missed
	Extender  bool // implements locks.Extender
	TTL       bool // implements locks.TTLReader: the owner-checked server TTL
	// Resets: an extension sets a vanished key again where a majority
	// still holds it (Redlock's); WatchdogReportsLoss then plants another
	// owner's key instead of deleting it.
	Resets bool
}

// Env is what Run needs: where the nodes are, how to build a locker, and
// what the pattern claims.
type Env struct {
	Backend Backend
	New     Factory
	// Nodes is how many of the backend's nodes the pattern uses (the
	// first ones); zero means 1.
	Nodes int
	// TTL is the lease time the properties use; zero means Backend.TTL().
	TTL  time.Duration
	Caps Caps
}

func (e Env) nodes() int { return max(e.Nodes, 1) }

func (e Env) ttl() time.Duration {
	if e.TTL > 0 {
		return e.TTL
	}
	return e.Backend.TTL()
}

// margin is how far past a TTL the properties wait for it to be over.
func (e Env) margin() time.Duration { return max(e.ttl()/4, 5*time.Millisecond) }
