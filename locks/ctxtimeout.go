package locks

import (
	"fmt"

	"github.com/redis/go-redis/v9"
)

// A go-redis client honours a context's deadline on its socket only when
// its options set ContextTimeoutEnabled: without it a reply is awaited
// for the client's ReadTimeout (3s by default), and again for each retry,
// whatever the context says. Every bound these locks promise is a context
// deadline — Acquire's ctx, Redlock's NodeTimeout, a renewal's third of
// the validity left — so on such a client one hung or black-holed server
// holds a call for seconds past them. Measured on redis-server 7.0.15: a
// Basic Acquire on a SIGSTOPped server took 5.0s against a 2s context
// (2.0s with ContextTimeoutEnabled); a Redlock Acquire (TTL 10s) with one
// node of three black-holed took 5.0s against its 1s NodeTimeout, half its
// validity gone (1.0s with it); and a Redlock watchdog (TTL 2.5s) with one
// node black-holed lost its lease when its validity ran out, 2.5s on,
// though the other two nodes would have renewed it (kept with it).
//
// So the constructors refuse such a client, with an *OptionError naming
// ContextTimeoutEnabled, rather than bound each call themselves: a call
// abandoned at its deadline would go on in the background holding a
// pooled connection, its outcome unknown, and the simulator could not
// schedule it. A user who wants the client's own timeouts instead sets
// Options.AllowContextTimeoutDisabled, and knows the bounds are gone.

// checkContextTimeout refuses r, named field, when it is a go-redis client
// whose options leave ContextTimeoutEnabled false, unless o allows it.
// Other seams (the simulator's, a wrapper) are taken as they are.
func (o Options) checkContextTimeout(field string, r Redis) error {
	if o.AllowContextTimeoutDisabled {
		return nil
	}
	enabled, kind, known := contextTimeoutEnabled(r)
	if !known || enabled {
		return nil
	}
	return &OptionError{field + ".ContextTimeoutEnabled", false, fmt.Sprintf(
		"must be true: without it go-redis ignores the context's deadline on the socket, so a hung server holds every call for the client's ReadTimeout and retries, past Acquire's context and NodeTimeout; set ContextTimeoutEnabled: true in the client's %s (or Options.AllowContextTimeoutDisabled to accept those waits)", kind)}
}

// contextTimeoutEnabled reads ContextTimeoutEnabled from a go-redis
// client's options, with the name of their type; known is false for any
// other seam.
func contextTimeoutEnabled(r Redis) (enabled bool, kind string, known bool) {
	switch c := r.(type) {
	case *redis.Client:
		return c.Options().ContextTimeoutEnabled, "redis.Options (redis.FailoverOptions for a failover client)", true
	case *redis.ClusterClient:
		return c.Options().ContextTimeoutEnabled, "redis.ClusterOptions", true
	case *redis.Ring:
		return c.Options().ContextTimeoutEnabled, "redis.RingOptions", true
	}
	return false, "", false
}
