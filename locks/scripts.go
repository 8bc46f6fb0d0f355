package locks

import (
	_ "embed"

	"github.com/redis/go-redis/v9"
)

// The Lua scripts, loaded once per process and run by SHA with a fallback to
// EVAL (redis.Script.Run).
var (
	//go:embed scripts/release.lua
	releaseSrc string
	//go:embed scripts/extend.lua
	extendSrc string
	//go:embed scripts/reentrant_acquire.lua
	reentrantAcquireSrc string
	//go:embed scripts/reentrant_release.lua
	reentrantReleaseSrc string
	//go:embed scripts/reentrant_extend.lua
	reentrantExtendSrc string
	//go:embed scripts/fenced_acquire.lua
	fencedAcquireSrc string
	//go:embed scripts/probe.lua
	probeSrc string
	//go:embed scripts/reentrant_fenced_acquire.lua
	reentrantFencedAcquireSrc string
	//go:embed scripts/token_acquire.lua
	tokenAcquireSrc string
	//go:embed scripts/redlock_extend.lua
	redlockExtendSrc string

	releaseScript          = redis.NewScript(releaseSrc)
	extendScript           = redis.NewScript(extendSrc)
	reentrantAcquireScript = redis.NewScript(reentrantAcquireSrc)
	reentrantReleaseScript = redis.NewScript(reentrantReleaseSrc)
	reentrantExtendScript  = redis.NewScript(reentrantExtendSrc)
	fencedAcquireScript    = redis.NewScript(fencedAcquireSrc)
	probeScript            = redis.NewScript(probeSrc)

	reentrantFencedAcquireScript = redis.NewScript(reentrantFencedAcquireSrc)
	tokenAcquireScript           = redis.NewScript(tokenAcquireSrc)
	redlockExtendScript          = redis.NewScript(redlockExtendSrc)
)

// Scripts returns the Lua sources the patterns run, by name, so that a
// simulated node or a differential test can execute exactly these.
func Scripts() map[string]string {
	return map[string]string{
		"release":                  releaseSrc,
		"extend":                   extendSrc,
		"reentrant_acquire":        reentrantAcquireSrc,
		"reentrant_release":        reentrantReleaseSrc,
		"reentrant_extend":         reentrantExtendSrc,
		"fenced_acquire":           fencedAcquireSrc,
		"probe":                    probeSrc,
		"reentrant_fenced_acquire": reentrantFencedAcquireSrc,
		"token_acquire":            tokenAcquireSrc,
		"redlock_extend":           redlockExtendSrc,
		"fair_acquire":             fairAcquireSrc,
		"fair_leave":               fairLeaveSrc,
		"fair_release":             fairReleaseSrc,
		"rw_rlock":                 rwRLockSrc,
		"rw_lock":                  rwLockSrc,
		"rw_wleave":                rwWLeaveSrc,
		"member_release":           memberReleaseSrc,
		"member_extend":            memberExtendSrc,
		"sem_acquire":              semAcquireSrc,
		"inspect":                  inspectSrc,
		"ttl":                      ttlSrc,
		"reentrant_ttl":            reentrantTTLSrc,
		"member_ttl":               memberTTLSrc,
		"multi_acquire":            multiAcquireSrc,
		"multi_release":            multiReleaseSrc,
		"multi_extend":             multiExtendSrc,
		"multi_ttl":                multiTTLSrc,
	}
}

// The scripts of the fair lock, the read-write lock, the semaphore and
// Inspect. Those that keep a set of expiring members (queued waiters,
// readers, permits) run with the helpers of lib_members.lua prepended: each
// member has its own key, prefix .. token, with a PX TTL, and a member whose
// key has expired is pruned before any decision. Expiry therefore follows
// the server's key TTLs only (no TIME, no client clock).
//
// Member keys are derived inside the scripts from a prefix that shares the
// lock's hash tag, so on Redis Cluster they live in the lock's slot.
var (
	//go:embed scripts/lib_members.lua
	libMembersSrc string
	//go:embed scripts/fair_acquire.lua
	fairAcquireBody string
	//go:embed scripts/lib_wake.lua
	libWakeSrc string
	//go:embed scripts/fair_leave.lua
	fairLeaveBody string
	//go:embed scripts/fair_release.lua
	fairReleaseBody string
	//go:embed scripts/rw_rlock.lua
	rwRLockBody string
	//go:embed scripts/rw_lock.lua
	rwLockBody string
	//go:embed scripts/rw_wleave.lua
	rwWLeaveSrc string
	//go:embed scripts/member_release.lua
	memberReleaseSrc string
	//go:embed scripts/member_extend.lua
	memberExtendBody string
	//go:embed scripts/sem_acquire.lua
	semAcquireBody string
	//go:embed scripts/inspect.lua
	inspectSrc string

	fairAcquireSrc  = libMembersSrc + fairAcquireBody
	fairLeaveSrc    = libMembersSrc + libWakeSrc + fairLeaveBody
	fairReleaseSrc  = libMembersSrc + libWakeSrc + fairReleaseBody
	rwRLockSrc      = libMembersSrc + rwRLockBody
	rwLockSrc       = libMembersSrc + rwLockBody
	memberExtendSrc = libMembersSrc + memberExtendBody
	semAcquireSrc   = libMembersSrc + semAcquireBody

	fairAcquireScript   = redis.NewScript(fairAcquireSrc)
	fairLeaveScript     = redis.NewScript(fairLeaveSrc)
	fairReleaseScript   = redis.NewScript(fairReleaseSrc)
	rwRLockScript       = redis.NewScript(rwRLockSrc)
	rwLockScript        = redis.NewScript(rwLockSrc)
	rwWLeaveScript      = redis.NewScript(rwWLeaveSrc)
	memberReleaseScript = redis.NewScript(memberReleaseSrc)
	memberExtendScript  = redis.NewScript(memberExtendSrc)
	semAcquireScript    = redis.NewScript(semAcquireSrc)
	inspectScript       = redis.NewScript(inspectSrc)
)

// The owner-checked TTL scripts.
var (
	//go:embed scripts/ttl.lua
	ttlSrc string
	//go:embed scripts/reentrant_ttl.lua
	reentrantTTLSrc string
	//go:embed scripts/member_ttl.lua
	memberTTLSrc string

	ttlScript          = redis.NewScript(ttlSrc)
	reentrantTTLScript = redis.NewScript(reentrantTTLSrc)
	memberTTLScript    = redis.NewScript(memberTTLSrc)
)

var (
	//go:embed scripts/multi_acquire.lua
	multiAcquireSrc string
	//go:embed scripts/multi_release.lua
	multiReleaseSrc string
	//go:embed scripts/multi_extend.lua
	multiExtendSrc string
	//go:embed scripts/multi_ttl.lua
	multiTTLSrc string

	multiAcquireScript = redis.NewScript(multiAcquireSrc)
	multiReleaseScript = redis.NewScript(multiReleaseSrc)
	multiExtendScript  = redis.NewScript(multiExtendSrc)
	multiTTLScript     = redis.NewScript(multiTTLSrc)
)
