package scenario

import (
	"errors"
	"fmt"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockkit"
)

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

// lockFields are the scenario fields of the locks.Options an
// *locks.OptionError names, and the directive other than pattern that
// may give each.
var lockFields = map[string]struct{ field, other string }{
	"TTL": {"ttl", "start"}, "RenewEvery": {"renew-every", ""}, "DriftFactor": {"drift", ""},
	"NodeTimeout": {"node-timeout", ""}, "Retry.Delay": {"retry-delay", "workload"},
	"Retry.MaxDelay": {"retry-max-delay", ""}, "Retry.Attempts": {"retry-attempts", ""},
	"WaitReplicas": {"wait-replicas", ""}, "WaitTimeout": {"wait-timeout", ""},
}

// checkLock checks the lock settings (LockOptions) by the lock's own
// rules, lockkit.ResolveRenewing: one source for the parser, the
// CLI, real mode and the simulator. It takes them as a pattern that
// renews does; whether a pattern takes renew-every or wait-replicas at
// all, or the node count, is its constructor's to say, once the pattern
// is known (realmode.CheckBuild). The error names the line and the field
// that set the refused option, and wraps the lock's *locks.OptionError.
func (s Scenario) checkLock() error {
	_, err := lockkit.ResolveRenewing(s.LockOptions())
	var oe *locks.OptionError
	if err == nil || !errors.As(err, &oe) {
		return err
	}
	f, known := lockFields[oe.Field]
	if !known {
		return fmt.Errorf("pattern: %w", err)
	}
	dir, line := "pattern", s.patternLine
	if l, ok := s.fieldLines[f.field]; ok && l != s.patternLine {
		dir, line = f.other, l
	} else if s.patternLine == 0 && f.other != "" {
		dir = f.other
	}
	field := f.field
	if dir == "workload" {
		field = "retry"
	}
	if line > 0 {
		return fmt.Errorf("line %d: %s: field %s: %w", line, dir, field, err)
	}
	return fmt.Errorf("%s: field %s: %w", dir, field, err)
}
