package scenario

import "github.com/locksim/locksim/locks"

// LockOptions are the locks.Options a client's lock is built with under s:
// the start line's TTL, the workload's first retry backoff, and the
// pattern line's options (PatternOptions: a zero field keeps the
// pattern's default; retry-attempts 0 retries until the workload's
// acquire-timeout). The caller adds the client's Clock and Rand. Real
// mode builds its client processes' locks with them, so a pattern line
// means the same in the simulator and on real redis-servers.
func (s Scenario) LockOptions() locks.Options {
	po := s.Pattern
	o := locks.Options{TTL: s.TTL,
		Retry:      locks.Retry{Attempts: -1, Delay: s.Workload.Retry, MaxDelay: po.RetryMaxDelay},
		RenewEvery: po.RenewEvery, DriftFactor: po.DriftFactor, NodeTimeout: po.NodeTimeout,
		WaitReplicas: po.WaitReplicas, WaitTimeout: po.WaitTimeout}
	if po.RetryAttempts > 0 {
		o.Retry.Attempts = po.RetryAttempts
	}
	return o
}
