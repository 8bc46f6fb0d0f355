// Package node simulates Redis servers for the simulator: a Node executes
// the commands and Lua scripts the lock patterns send, with TTLs measured on
// the node's own wall clock (so a node's clock can drift or jump on its own),
// a script cache that a restart empties (so clients see NOSCRIPT and fall
// back to EVAL, as against a real server), crash and restart with or without
// persistence, and an optional replica fed by asynchronous replication that
// a failover promotes, losing what it had not received yet.
//
// # Backends
//
// A Node keeps its data in a Store. Two exist:
//
//   - Native: an in-process key space with the commands the patterns use
//     (SET with NX/XX/PX/EX/KEEPTTL, GET, DEL, EXISTS, PEXPIRE, PTTL, INCR,
//     HEXISTS, HGET, HINCRBY, HGETALL) and native implementations of the
//     scripts in locks.Scripts(). It is fast (no Lua interpreter).
//   - Mini: miniredis, run in-process with Dispatch; it executes any Lua
//     script and any command miniredis knows.
//
// A native Node that receives a script or command it does not know copies
// its key space into a fresh Mini store and continues there, so any
// pattern runs unchanged. The differential tests (differential_test.go)
// hold Native equal to miniredis and to a real redis-server on the scripts
// and commands the patterns use.
//
// Replies are Reply values (integer, bulk, nil, status, array or error),
// the RESP types a client sees.
package node
