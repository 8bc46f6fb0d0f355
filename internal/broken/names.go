package broken

import "github.com/locksim/locksim/pattern"

// The variants' own scripts are named, so that their traces, histories
// and counterexample pages say which script ran (EVALSHA
// basic-del.release …) where they showed script:<sha>.
func init() {
	for name, src := range map[string]string{
		"basic-del.release":         delSource,
		"reentrant-nocount.release": noCountReleaseSource,
		"fenced-volatile.acquire":   volatileFenceSource,
		"watchdog-zombie.renew":     retakeSource,
	} {
		pattern.NameScriptSource(name, src)
	}
	pattern.NameScript("seed-fair.enqueue", seedZAddScript)
	pattern.NameScript("seed-fair.expire", seedExpireScript)
	pattern.NameScript("seed-fair.leave", seedZRemScript)
	pattern.NameScript("seed-fair.poll", seedFairScript)
	pattern.NameScript("seed-rw.rlock", seedRLockScript)
	pattern.NameScript("seed-rw.runlock", seedRUnlockScript)
	pattern.NameScript("seed-rw.write-check", seedWriteCheckScript)
}
