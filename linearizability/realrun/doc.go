// Package realrun records histories of lock patterns running for real:
// many goroutines, each a client with its own locker, loop acquire → read
// the protected counter → work → write the value read plus one → release,
// against real redis-server processes or miniredis, with every operation
// timed on the monotonic clock (time.Since a start instant). The result is
// a history.History that package linearizability checks.
//
// The counter is kept in process memory (MemoryStore) or in Redis
// (RedisStore); either can check fencing tokens, accepting a write only
// with a token at least the highest accepted. Each critical section is
// recorded as a section op (for the counter model) and as its read and
// write (for the register model); every lock call is recorded too (for the
// lock API model, valid when no lease expires).
//
// A correct pattern with a TTL far longer than the work produces a history
// that checks Ok. Config can also break a run on purpose, to show that the
// check catches it: clients that skip the lock (Unlocked), or that write
// after their lease ran out (IgnoreLoss, with a TTL shorter than Work).
//
//	h, err := realrun.Run(ctx, realrun.Config{
//		Pattern: "reentrant", Nodes: []locks.Redis{rdb}, Source: "redis",
//		Clients: 8, Sections: 50, Reenter: true,
//	})
//	rep, err := linearizability.Check(h, linearizability.Options{Models: linearizability.AllModels})
package realrun
