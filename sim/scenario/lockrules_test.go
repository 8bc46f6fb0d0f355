package scenario

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/locks"
)

// TestLockSettingsByTheLocksRules: the lock settings are checked by the
// lock's own rules (locks.Options), naming the line, the field and the
// lock's message, with the *locks.OptionError in the chain.
func TestLockSettingsByTheLocksRules(t *testing.T) {
	for _, tc := range []struct{ text, want, field string }{
		{"start\npattern drift=0.7\n", "line 2: pattern: field drift: locks: DriftFactor (0.7) must be in [0, 0.5)", "DriftFactor"},
		{"start ttl=2ms\n", "line 1: start: field ttl: locks: TTL (2ms) leaves no validity after the drift allowance", "TTL"},
		{"start\npattern ttl=2ms\n", "line 2: pattern: field ttl: locks: TTL (2ms) leaves no validity", "TTL"},
		{"start\nworkload retry=50ms\npattern retry-max-delay=20ms\n", "line 3: pattern: field retry-max-delay: locks: Retry.MaxDelay (20ms) must be at least Retry.Delay (50ms)", "Retry.MaxDelay"},
		{"start\npattern wait-timeout=10ms\n", "line 2: pattern: field wait-timeout: locks: WaitTimeout (10ms) is set but WaitReplicas is 0", "WaitTimeout"},
		{"start\npattern wait-replicas=1 wait-timeout=99ms\n", "line 2: pattern: field wait-timeout: locks: WaitTimeout (99ms) must be less than the validity the TTL leaves (97ms)", "WaitTimeout"},
		{"start\npattern renew-every=100ms\n", "line 2: pattern: field renew-every: locks: RenewEvery (100ms) must be less than TTL (100ms)", "RenewEvery"},
		{"start ttl=500us\n", "line 1: start: field ttl: locks: TTL (500µs) must be at least 1ms", "TTL"},
		{"start\npattern ttl=0s\n", "line 2: pattern: field ttl: locks: TTL (0s) must be at least 1ms", "TTL"},
		{"start\nworkload retry=-1ms\n", "line 2: workload: field retry: locks: Retry.Delay (-1ms) must not be negative", "Retry.Delay"},
		{"start\npattern retry-delay=-1ms\n", "line 2: pattern: field retry-delay: locks: Retry.Delay (-1ms) must not be negative", "Retry.Delay"},
	} {
		_, err := ParseString(tc.text)
		var oe *locks.OptionError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &oe) || oe.Field != tc.field {
			t.Errorf("Parse(%q) = %v, want an error containing %q with a *locks.OptionError for %s", tc.text, err, tc.want, tc.field)
		}
	}
	if _, err := ParseString("start\npattern drift=0.49 renew-every=99ms\n"); err != nil {
		t.Errorf("settings the lock takes: %v", err)
	}
}

// TestLockSettingsOfAScenarioMadeInGo: a scenario built in Go, without
// lines, is checked by the same rules, naming the directive and field
// that would set the refused option.
func TestLockSettingsOfAScenarioMadeInGo(t *testing.T) {
	noTTL, negRetry := Default(), Default()
	noTTL.TTL = 0
	negRetry.Workload.Retry = -time.Millisecond
	for _, tc := range []struct {
		s     Scenario
		want  string
		field string
	}{
		{noTTL, "start: field ttl: locks: TTL (0s) must be at least 1ms", "TTL"},
		{negRetry, "workload: field retry: locks: Retry.Delay (-1ms) must not be negative", "Retry.Delay"},
	} {
		err := tc.s.Validate()
		var oe *locks.OptionError
		if err == nil || err.Error() != tc.want || !errors.As(err, &oe) || oe.Field != tc.field {
			t.Errorf("Validate() = %v, want %q with a *locks.OptionError for %s", err, tc.want, tc.field)
		}
	}
}
