package locks

import (
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks/scripts"
)

// script is the *redis.Script of the named script of package scripts,
// loaded once per process and run by SHA with a fallback to EVAL
// (redis.Script.Run).
func script(name string) *redis.Script { return redis.NewScript(scripts.Source(name)) }

// The scripts the patterns run.
var (
	releaseScript          = script("release")
	extendScript           = script("extend")
	reentrantAcquireScript = script("reentrant_acquire")
	reentrantReleaseScript = script("reentrant_release")
	reentrantExtendScript  = script("reentrant_extend")
	fencedAcquireScript    = script("fenced_acquire")
	probeScript            = script("probe")
	// redlockAcquireScript is Redlock's per-node acquisition: SET NX PX in a
	// script, so that a node where the user may not run scripts, or where the
	// lock key has another type, fails the attempt with a permanent error in
	// the same round trip instead of granting a lock it cannot release there.
	redlockAcquireScript         = script("redlock_acquire")
	reentrantFencedAcquireScript = script("reentrant_fenced_acquire")
	tokenAcquireScript           = script("token_acquire")
	redlockExtendScript          = script("redlock_extend")
	fairAcquireScript            = script("fair_acquire")
	fairLeaveScript              = script("fair_leave")
	fairReleaseScript            = script("fair_release")
	rwRLockScript                = script("rw_rlock")
	rwLockScript                 = script("rw_lock")
	rwWLeaveScript               = script("rw_wleave")
	rwWriterReadScript           = script("rw_writer_read")
	adoptScript                  = script("adopt")
	memberReleaseScript          = script("member_release")
	memberExtendScript           = script("member_extend")
	semAcquireScript             = script("sem_acquire")
	semResizeScript              = script("sem_resize")
	semAvailableScript           = script("sem_available")
	inspectScript                = script("inspect")
	ttlScript                    = script("ttl")
	reentrantTTLScript           = script("reentrant_ttl")
	memberTTLScript              = script("member_ttl")
	multiAcquireScript           = script("multi_acquire")
	multiReleaseScript           = script("multi_release")
	multiExtendScript            = script("multi_extend")
	multiTTLScript               = script("multi_ttl")
	forceReleaseScript           = script("force_release")
)
