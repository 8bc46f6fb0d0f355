// Package node simulates Redis servers for the simulator: a Node executes
// the commands and Lua scripts the lock patterns send, with TTLs measured on
// the node's own wall clock (so a node's clock can drift or jump on its own),
// a script cache that a restart empties (so clients see NOSCRIPT and fall
// back to EVAL, as against a real server), crash and restart with or without
// persistence or with an fsync window (persist.go: AOF appendfsync everysec
// on a host that goes down, losing the writes after the last once-a-second
// fsync; a killed redis-server on a live host loses none of them, having
// written them to the page cache), and optional replicas fed by asynchronous
// replication (replicas.go: a constant or drawn lag per write, applied in
// order) that failovers promote one by one, the most up-to-date first,
// losing what it had not received yet. WAIT (wait.go) parks until enough
// replicas have applied a connection's last write or its timeout passes on
// the node's clock; a crash or failover ends the node's connections (its
// Epoch moves on) and drops the parked WAITs unanswered.
//
// # Backends
//
// A Node keeps its data in a Store. Two exist:
//
//   - Native: an in-process key space with the commands the patterns and
//     the reference libraries use (SET with NX/XX/PX/EX/KEEPTTL, GET,
//     GETRANGE, DEL, EXISTS, TYPE, PEXPIRE, PTTL, INCR, HEXISTS, HGET,
//     HINCRBY, HGETALL, SADD, SREM, SMEMBERS, SISMEMBER, SCARD, ZADD, ZSCORE,
//     ZRANGE, ZRANK, ZREM, ZCARD) and hand-written Go twins of seven
//     scripts of scripts.All() (release, extend, fenced_acquire,
//     redlock_acquire and the three reentrant ones), plus guarded twins
//     (twins.go) of seven more: sem_acquire, member_release, rw_rlock,
//     rw_lock, fair_acquire, fair_release and reentrant_fenced_acquire.
//   - Mini: miniredis, run in-process with Dispatch; it executes any Lua
//     script and any command miniredis knows.
//
// A guarded twin answers only the inputs on which none of its script's
// redis.call can fail (keys distinct and of the right type, TTLs and
// counters well-formed integers) and declines the others before any
// effect; those run on the Lua engine, so a guarded twin's replies,
// effects and written keys are always the engine's, error texts included.
// The twins of native_scripts.go answer every input but word an error as
// the failing command does, without the script and line Redis adds (no
// simulation test or golden trace meets one); EVAL_RO sends every twin's
// script to the engine, since they all write.
//
// On a native node, a script without a twin — the rest of the fair lock's,
// the read-write lock's and the semaphore's, a user's own, a library's —
// and a call a guarded twin declines run on the node's Lua engine (lua.go): one gopher-lua state per node, each
// script compiled once and cached by SHA1, redis.call bound to the node's
// own store, globals read-only, Redis 7's error texts. A command the native
// store does not implement (at top level or inside a script) copies the
// key space into a fresh Mini store and the node continues there, scripts
// still on the engine, so any pattern runs unchanged. A BackendMini node
// runs scripts on miniredis itself: the reference the engine is held to.
//
// The twins are kept because they still matter: a twin call costs 0.24–0.5
// µs, the same script on the engine 1.4–3 µs, miniredis 200–300 µs
// (BenchmarkScripts); the patterns that use them send a script or two per
// cycle. The guarded twins are 4–10× cheaper than the engine on the calls
// the patterns make (BenchmarkGuardedTwins) and took the fair lock's steady
// run from about 300 to 150 ms of CPU, the semaphore's from about 180 to
// 110. sim/NOTES.md has the measurements.
//
// The differential tests (differential_test.go, lua_test.go, twins_test.go)
// hold Native, the twins and the engine equal to miniredis and to a real
// redis-server on every script of scripts.All() and the commands they
// use, and the guarded twins equal to the engine byte for byte; bench/refs
// does the same for the scripts of redsync and bsm/redislock, driven by the
// libraries themselves.
//
// Replies are Reply values (integer, bulk, nil, status, array or error),
// the RESP types a client sees.
package node
