package broken

import (
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// The broken variants. Each carries the Claims of the correct pattern it
// imitates: the gate expects those claims of it and must see them violated.
func init() {
	pattern.Register(pattern.Pattern{Name: "basic-del", Nodes: 1, Broken: true, Claims: pattern.Claims{Mutex: true},
		Pitfall: "release by plain DEL with no owner check: deletes the next holder's lock after yours expired",
		Summary: "basic SET NX PX, released by DEL",
		New:     pattern.Single(NewBasicDel)})
	pattern.Register(pattern.Pattern{Name: "reentrant-nocount", Nodes: 1, Broken: true, Claims: pattern.Claims{Mutex: true},
		Pitfall: "re-entry without a count: the inner release frees the lock while the outer section still runs",
		Summary: "owner may re-enter (key holds the owner id), every release is an owner-checked DEL",
		New:     pattern.Single(NewReentrantNoCount)})
	pattern.Register(pattern.Pattern{Name: "watchdog-renew-ttl", Nodes: 1, Broken: true, Claims: pattern.Claims{Mutex: true},
		Pitfall: "renewal interval equal to the TTL: the lock lapses between renewals",
		Summary: "SET NX PX renewed every TTL instead of TTL/3",
		New:     pattern.Single(NewWatchdogRenewTTL)})
	pattern.Register(pattern.Pattern{Name: "service-seconds", Nodes: 1, Broken: true, Claims: pattern.Claims{Mutex: true},
		Pitfall: "TTL sent as int(timeout.Seconds()): a sub-second TTL becomes EXPIRE 0, which deletes the key at once",
		Summary: "the seed's lock service: reentrant hash + watchdog, TTL and renewal cadence in whole seconds",
		New:     pattern.Single(NewServiceSeconds)})
	pattern.Register(pattern.Pattern{Name: "fenced-volatile", Nodes: 1, Broken: true, Claims: pattern.Claims{SafeStore: true, Fencing: true},
		Pitfall: "fence counter lost with the lock (it has the lock's TTL): tokens restart at 1 and repeat",
		Summary: "SET NX PX + INCR of a fence counter that expires",
		New:     pattern.Single(NewFencedVolatile)})
	pattern.Register(pattern.Pattern{Name: "redlock-novalidity", Nodes: 5, Broken: true, Claims: pattern.Claims{Mutex: true},
		Pitfall: "Redlock without the validity check: takes the quorum however late, lease valid for the full TTL",
		Summary: "quorum of N nodes, no validity = TTL - elapsed - drift",
		New: func(nodes []locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			return NewRedlockNoValidity(nodes, k, o)
		}})
	pattern.Register(pattern.Pattern{Name: "redlock-fenced-pernode", Nodes: 5, Broken: true,
		Claims:  pattern.Claims{Mutex: true, SafeStore: true, Fencing: true},
		Pitfall: "fencing tokens from per-node INCR counters: the largest counter of a quorum is not monotonic across quorums",
		Summary: "Redlock running the fenced acquire script on every node, Fence = max of the quorum's counters",
		New: func(nodes []locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			return NewRedlockFencedPerNode(nodes, k, o)
		}})
}

// claimsOf is the claims of the correct pattern named name, which a
// variant of it is held to.
func claimsOf(name string) pattern.Claims {
	p, err := pattern.Lookup(name)
	if err != nil {
		panic("broken: " + err.Error())
	}
	return p.Claims
}
