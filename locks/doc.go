// Package locks implements Redis distributed-lock patterns behind one
// interface, Locker:
//
//   - Basic: SET key token NX PX ttl, owner-checked Lua release.
//   - Reentrant: a hash {owner: count}; the owner re-enters, TTL refreshed on
//     every re-entry and partial release.
//   - Watchdog: renewed every TTL/3 while held; the holder learns of loss.
//   - Redlock: N independent nodes, quorum N/2+1, parallel requests,
//     validity = TTL − elapsed − drift allowance; Extend re-sets the key
//     on nodes that lost it while a majority still holds it (once a
//     majority lost it, another owner may have held the lock meanwhile:
//     the extension is refused).
//   - Redlock watchdog (NewRedlockWatchdog): a Redlock renewed like
//     Watchdog, each renewal a quorum Extend.
//   - Service: reentrant + watchdog + retry with backoff + context + metrics.
//   - Fenced: SET NX PX and INCR of a never-expiring fence counter in one
//     script; keys share a hash tag so it works on Redis Cluster.
//   - Fair: granted in arrival order (a server-side ticket and queue), each
//     waiter's entry expiring on its own; waiters block on a wake list
//     where the seam can block, and poll otherwise.
//   - RWLock: readers share it, a writer holds it alone; every reader is an
//     owner with its own expiring key, and a waiting writer's intent holds
//     new readers back. A holding re-enters through its lease (Reenter); a
//     writer takes the read lock its holding implies (RLockAsWriter) or
//     downgrades to a reader in one step (Downgrade).
//   - NewRWLockWatchdog, NewFairWatchdog: RWLock and Fair holdings renewed
//     in the background like Watchdog's.
//   - Semaphore: at most N permits held at once, each holding owned and
//     expiring on its own; AcquireN takes several permits atomically (all
//     or none) and its Release gives them all back; Available reads the
//     free ones. N is stored with the semaphore by its first acquisition: a
//     client built with another N gets ErrPermitsMismatch (permanent),
//     never a permit, and Resize is the one way to change N.
//   - MultiLock: several keys on one node taken all or none in one script
//     (no deadlock from a circular wait); on a *redis.ClusterClient the keys
//     must share a hash slot.
//   - The fencing options: Fenced always fences; Options.Fencing makes
//     Watchdog, Reentrant, Service and Fair fence too (below).
//
// Options.Fencing gives Watchdog and Service (and Reentrant) the fencing
// tokens of Fenced: the key becomes a name, the lock lives at
// FencedLockKey(name), and each new holding gets the next token of the
// never-expiring counter FencedCounterKey(name) in the grant's own script
// (a re-entry keeps its holding's token), so renewal and fencing can be
// had in one lock.
// On Fair it increments FairFenceKey(name), in the lock's slot, in the
// grant's script, and the lease carries the token.
//
// Options.RetryStrategy replaces the Retry field's attempts and backoff:
// every pattern's retry loop asks it after each failed attempt whether to
// try again and after what wait (NoRetry, ConstantBackoff, LinearBackoff,
// ExponentialBackoff — the default — and LimitRetry are built in; jitter
// comes from Options.Rand). Whatever the strategy, a waiter does not sleep
// past the holder's expiry where its refused attempt learns it: the
// acquisition scripts of Reentrant, Service, Fenced and Watchdog with
// Fencing, and RWLock's polls refused by a writer, return the lock key's
// PTTL, and the first time in an Acquire that the holding runs out before
// the wait ends the loop polls once as it does (with a jitter), then
// sleeps the rest of the wait: a vanished holder hands the lock on as its
// TTL runs out, and a live one costs one extra poll. Basic's and Watchdog's plain SET
// NX learns nothing, nor does a Fair waiter or a writer waiting for
// readers; they find an expired holding on their next poll.
//
// Options.Token gives Basic and Watchdog a caller-chosen owner token in
// place of a fresh one per acquisition: a process that restarts with the
// same Token takes its lock back with Acquire (it succeeds when the key is
// free or holds Token) and can then release it. A Token names one process;
// two live lockers sharing it are not excluded from each other.
//
// Options.WaitReplicas makes the single-node patterns (Basic, Watchdog,
// Fenced, Reentrant, Service) send WAIT WaitReplicas WaitTimeout after
// every grant and every renewal or extension, on the connection that made
// the write (WAIT counts acknowledgements of its own connection's last
// write, and scripts cannot run it): a grant that fewer replicas confirm is
// given back and fails with ErrNotReplicated (a *ReplicationError; Acquire
// retries it under Retry), a renewal that fewer confirm loses the lease,
// and a renewal moves the lease's validity only once confirmed. So a
// failover to a replica that lagged cannot forget a lock its holder relies
// on. The connection is pinned with Client.Conn (for a ClusterClient, on
// the master of the key's slot); another seam implements ReplicaWaiter.
//
// # Seams
//
// The patterns talk to Redis only through Redis (redis.Scripter plus SetNX:
// *redis.Client and *redis.ClusterClient satisfy it) and, where the Redis
// also has the optional Blocker (BLPop and Do: go-redis's clients and the
// simulator's do), let fair waiters block on a wake list instead of
// sleeping; without it they poll. They observe or spend
// time only through clock.Clock, including the goroutines they start (the
// renewal loop, Redlock's fan-out). Owner tokens and jitter come from Rand.
// The simulator supplies its own implementations of all three and runs this
// same code; a test (lint_test.go) fails if lock code escapes the seams.
//
// Every bound the patterns promise is a context deadline, and go-redis
// honours one on the socket only when the client's options set
// ContextTimeoutEnabled: every constructor refuses a go-redis client
// (*redis.Client, failover ones included, *redis.ClusterClient,
// *redis.Ring) whose options leave it false, with an *OptionError naming
// ContextTimeoutEnabled, unless Options.AllowContextTimeoutDisabled
// accepts the client's own timeouts instead (see ctxtimeout.go). A Redlock
// refuses one server given twice (the same client, or one address).
//
// # Usage
//
//	rdb := redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true})
//	l, err := locks.NewBasic(rdb, "orders:42", locks.Options{TTL: 10 * time.Second})
//	lease, err := l.Acquire(ctx)
//	if err != nil { ... } // errors.Is(err, locks.ErrNotAcquired)
//	defer l.Release(ctx, lease)
//	// ... work, checking lease.Err() before acting on the protected resource
//
// TTLs are milliseconds on the wire (PX, PEXPIRE). Options are validated at
// construction: an invalid one returns an *OptionError naming the field and
// its value.
//
// # Leases
//
// Extend pushes a held lease's expiry out by Options.TTL; ExtendTTL
// (TTLExtender: Basic, Reentrant, Fenced, Redlock, Fair, MultiLock) to
// another TTL, with the same owner check, refusing a TTL that leaves no
// validity after its drift allowance. The watchdog patterns (Watchdog,
// Service, a Redlock watchdog) renew by themselves, on one renewal
// goroutine per Locker that renews all its holdings, each on its own
// schedule; it starts with the Locker's first holding and ends once the
// Locker has held nothing for 50ms (at most RenewEvery), so acquisitions
// start no goroutine for it. TTL (TTLReader, every pattern) reads the
// server's remaining TTL of a held lease in an owner-checked script;
// ErrNotHeld once the lease no longer holds it.
//
// A lease is honoured only by the Locker that issued it, and only once:
// Release and Extend of a nil, zero, hand-built (&Lease{...}) or altered
// lease, of another Locker's lease (another key, or another client on the
// same key), of a lease already released or of a holding that is over
// return ErrNotHeld with the reason, touch nothing in Redis and end no
// other lease. A Release that the server answered "not held" (the lease's
// validity had run out and its key expired) spends the lease too: a second
// Release is refused before anything is sent, and Metrics counts the loss
// once. Reentrant and Service record one entry per acquisition in
// their hash, so a duplicate or late release request can only remove its
// own acquisition. Lease.Done closes when the validity runs out on the
// holder's clock (a timer: the Clock's own AfterFunc where it has one, as
// clock.Real does, otherwise a goroutine sleeping on it), when the lock is
// found lost (by a renewal,
// Extend, TTL or Release), or on Release; the watchdog bounds each renewal attempt by a third of the
// validity left and retries while validity remains.
//
// # Building your own
//
// Package lockkit is the kit for a Locker built outside this package (a
// lock of your own to check with locksim): Options resolved as the
// patterns resolve them, their retry loop, and leases with validity and a
// loss notice. Package scripts holds the Lua the patterns run.
//
// # Deadlines
//
// Acquire honours its context: once the context is done it returns as
// soon as the Redis call in flight does. A failed attempt may still owe the
// server a clean-up — the undo of a grant whose reply was lost or came too
// late to leave any validity (every single-node pattern), leaving a fair
// queue, or withdrawing a writer's intent (Fair, RWLock, Semaphore).
// Acquire runs it while its context lasts; once the context is done it
// waits for it at most CleanupGrace (100ms, one round trip to a server that
// answers, so that a cancelled waiter has normally left its queue when
// Acquire returns) and leaves it running in the background, started
// through the Clock's Go and bounded by the TTL (by then the keys it would
// remove have expired). So an Acquire with a deadline returns by the
// deadline plus CleanupGrace plus the time the Redis client takes to give
// up the call in flight, which is next to nothing with go-redis's
// Options.ContextTimeoutEnabled. Without it go-redis reads a reply for up to
// its ReadTimeout (3s by default, and retried) whatever the deadline, and
// Acquire returns when that call does, plus at most CleanupGrace.
//
// # Errors
//
// Acquire retries transient failures — timeouts, refused connections,
// LOADING, BUSY, TRYAGAIN, CLUSTERDOWN, MASTERDOWN, READONLY (a failover
// in progress) — under its Retry policy. A permanent one ends it at once:
// the error matches ErrPermanent and keeps the Redis reply in its chain
// (errors.As with redis.Error): WRONGTYPE, NOPERM, NOAUTH/WRONGPASS, an
// unknown command, MOVED/ASK on a plain client, CROSSSLOT, a fence counter
// that is not an integer. Basic and Watchdog, whose acquisition is a plain
// SET NX, run a probe script once per Locker before their first write, so
// that a user who may not run scripts (and could never release) gets
// NOPERM, and a lock key of another type WRONGTYPE, instead of a lock taken
// forever. Fair's poll and RWLock's RLock and Lock polls check their lock
// key (and RWLock's intent key) the same way in the script itself, since
// they read a key's presence as "held". Redlock takes each node by a script (SET NX PX after a GET, one
// round trip, scripts/redlock_acquire.lua), which fails the same ways on
// that node; once so many nodes failed permanently that no majority is
// possible, Acquire ends with ErrPermanent. A lock that stayed taken is
// ErrNotAcquired; for Redlock ErrQuorum, while a quorum missed because
// nodes did not answer is ErrUnavailable (with a *NodeError per node in
// the *QuorumError). A failed Fenced acquisition,
// or one with Options.Fencing, leaves no lock key behind: a fence counter
// that cannot be incremented fails it with ErrPermanent.
package locks
