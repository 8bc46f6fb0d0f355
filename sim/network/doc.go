// Package network simulates the network between clients and servers (the
// Redis nodes and the protected store) for the simulator.
//
// Every client/endpoint pair is a Link with its own latency distribution
// (base + uniform jitter + a rare tail, drawn from the link's own seeded
// stream), loss rate, partitions and extra delay (slow links). A call is two
// messages: the request, delivered to the endpoint after the link's latency
// and executed there at that instant, and the reply, sent back over the
// same link. Either can be dropped; so a command can take effect while its
// reply is lost, and the caller then sees a timeout and does not know the
// outcome.
//
// The caller is a simulated goroutine (sched.G) of a client process: Call
// parks it until the reply arrives, its context is done (deadline or
// cancel), or the client-side timeout (go-redis's ReadTimeout, measured on
// the client's clock) expires, whichever is first. A reply that arrives
// after the call gave up is discarded, as a client discards replies on a
// connection it has closed.
//
// RedisClient is locks.Redis over a Link to a node.Node: the patterns'
// calls (EVALSHA, EVAL, SCRIPT, SET NX) become commands, and the node's
// replies come back as go-redis *Cmd values, NOSCRIPT included, so
// redis.Script.Run falls back to EVAL exactly as against a real server.
//
// A blocking command is an endpoint's Defer: WAIT is taken by the node's
// endpoint, which knows each client's connection and its last write, and
// answered later (when the replicas have the write, or at WAIT's timeout)
// with a reply that crosses the link like any other. RedisClient is one
// connection, so it is its own locks.Session (locks.ReplicaWaiter); a WAIT
// on a connection whose node crashed or failed over since its last write
// fails with a ResetError, as a pinned go-redis connection to a dead
// primary does.
package network
