package locks

import (
	"context"
	_ "embed"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is the narrow Redis seam the patterns use: scripts, plus SET NX PX.
// *redis.Client, *redis.ClusterClient and *redis.Ring satisfy it, and so does
// the simulator's client.
type Redis interface {
	redis.Scripter
	SetNX(ctx context.Context, key string, value any, expiration time.Duration) *redis.BoolCmd
}

var (
	_ Redis = (*redis.Client)(nil)
	_ Redis = (*redis.ClusterClient)(nil)
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
		"redlock_acquire":          redlockAcquireSrc,
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

func runInt(ctx context.Context, r Redis, s *redis.Script, keys []string, args ...any) (int64, error) {
	return s.Run(ctx, r, keys, args...).Int64()
}
