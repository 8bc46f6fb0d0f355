// Package pattern is the public registry of lock patterns: what the
// simulator (sim.Run), the test harness (locksimtest), the gate and the CLI
// select by name. A Pattern is a name, the claims it makes, its node count,
// whether its holdings may be shared, whether its waiters queue in arrival
// order, and a constructor over the seams:
//
//	pattern.Register(pattern.Pattern{
//		Name:    "mylock",
//		Summary: "SET NX PX + fence, renewed by a watchdog loop on the Clock",
//		Nodes:   1,
//		Claims:  pattern.Claims{Mutex: true},
//		New: pattern.Single(func(r locks.Redis, key string, o locks.Options) (locks.Locker, error) {
//			return mylock.New(r, key, o)
//		}),
//	})
//
// The constructor is called once per simulated client with that client's
// connections (one locks.Redis per node), the lock key and locks.Options,
// whose Clock (clock.Clock) and Rand (locks.Rand) are the client's own: in
// the simulator they are virtual. A pattern that is to run in the
// simulator must observe and spend time only through o.Clock (Now, Since,
// Sleep, WithTimeout, WithCancel, Go, Parallel), talk to Redis only
// through the locks.Redis it is given, and draw tokens and jitter from
// o.Rand: a bare go statement, time.Sleep, a plain channel or a
// sync.WaitGroup escapes the simulator, which then fails the run with an
// error naming the goroutine.
//
// The simulator's traces (and the harness's counterexample traces) show
// every Redis command a client sends; a script shows by name: the
// patterns' own under the names scripts.All gives them, a Locker's own
// under the name NameScript gives it where the script is declared
//
//	var acquire = pattern.NameScript("mylock_acquire", redis.NewScript(acquireSrc))
//
// (EVALSHA mylock_acquire lock c1-1-00f372 100), and any other as
// script:<the first 8 hex digits of its SHA1>.
//
// Claims are what the oracles judge: Mutex (no two holders at one instant
// of true time), SafeStore (a store that checks fencing tokens loses no
// update), Fencing (tokens strictly increase), MaxHolders (at most N
// holders), Progress (the lock is never free for longer than that many
// TTLs while clients want it; the built-ins claim ProgressTTLs),
// LossSignal (the holder learns that the server let its lock go within
// that many percent of the TTL: LossSignalTimer for the patterns whose
// signal is the validity timer — basic, fenced, reentrant, redlock, fair,
// fair-fenced, rwlock, rwlock-write, semaphore — and LossSignalRenewal
// for the renewing ones — watchdog, service, watchdog-fenced,
// service-fenced, redlock-watchdog; every built-in claims one). The
// loss-signal oracle watches a holding at the lease's Key, which names
// its Token, unless the pattern's Holding says where else it lives (a
// semaphore permit or a reader: its token in a set and its own expiring
// key; see Mark). Every pattern is also measured on progress and on
// no-starvation (no client stuck), claimed or not, and the gate can
// expect either.
//
// A shared (read) holding is a lease for which ReadLease reports true: one
// its Locker marked Shared (locks.Lease.Shared). A pattern with such
// holdings sets Shared.
//
// A pattern whose waiters queue on the server and are granted in the order
// they queued (the fair lock) sets FIFO, and so does a broken variant that
// imitates one; the report's FIFO row compares exactly these.
//
// The patterns are kept in a Catalog; Default holds the shipped ones, and
// Register, All and Lookup are its methods. The deliberately broken
// variants that prove locksim's checks can fail are added to it by an
// explicit call (Extend of an internal package), by the CLI and the tests
// that select them; All lists correct patterns before broken ones.
package pattern
