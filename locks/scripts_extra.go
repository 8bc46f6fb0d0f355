package locks

import (
	_ "embed"

	"github.com/redis/go-redis/v9"
)

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
