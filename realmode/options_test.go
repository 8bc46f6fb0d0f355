package realmode

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// catalogConfig is a run of the catalog pattern name (with its
// constructor, as locksim real gives it) under the scenario text.
func catalogConfig(t *testing.T, name, text string) Config {
	t.Helper()
	p, err := pattern.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, "basic", sc, 1)
	cfg.Pattern = p
	return cfg
}

// TestRefusedLockSettingsNamed: a TTL, a node count or a pattern-line
// option the pattern's constructor refuses ends the run before any
// process starts, with ErrRefused and the constructor's error naming the
// field and the value.
func TestRefusedLockSettingsNamed(t *testing.T) {
	for _, c := range []struct {
		pattern, text string
		set           func(*scenario.Scenario) // settings Parse would refuse, set on the struct
		field         string                   // the *locks.OptionError's, or "" for another error
		want          string
	}{
		{"basic", "start clients=2\n", func(s *scenario.Scenario) { s.TTL = time.Millisecond }, "TTL", "TTL (1ms)"},
		{"watchdog", "start clients=2\n", func(s *scenario.Scenario) { s.Pattern.DriftFactor = 0.6 }, "DriftFactor", "DriftFactor (0.6)"},
		{"redlock", "start clients=2\npattern wait-replicas=1\n", nil, "WaitReplicas", "WaitReplicas (1)"},
		{"basic", "start nodes=3 clients=2\n", nil, "", "exactly 1 node, got 3"},
	} {
		cfg := catalogConfig(t, c.pattern, c.text)
		if c.set != nil {
			c.set(&cfg.Scenario)
		}
		_, err := Run(context.Background(), cfg)
		var oe *locks.OptionError
		switch {
		case !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), c.want):
			t.Errorf("%s under %q: %v, want ErrRefused naming %q", c.pattern, c.text, err, c.want)
		case c.field != "" && (!errors.As(err, &oe) || oe.Field != c.field):
			t.Errorf("%s under %q: %v, want a *locks.OptionError for %s in the chain", c.pattern, c.text, err, c.field)
		}
		if left := children(t); len(left) > 0 {
			t.Errorf("%s under %q: processes started: %v", c.pattern, c.text, left)
		}
	}
}

// TestLibraryRefusesPatternOptions: a library subject takes the TTL and
// the first retry backoff only; a scenario setting any other lock option
// is refused, naming each, rather than run with the library's defaults.
func TestLibraryRefusesPatternOptions(t *testing.T) {
	sc, err := scenario.ParseString("start clients=2\npattern renew-every=20ms retry-attempts=3\n")
	if err != nil {
		t.Fatal(err)
	}
	lib := testConfig(t, "basic", sc, 1)
	lib.Library = true
	_, err = Run(context.Background(), lib)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "renew-every, retry-attempts") {
		t.Errorf("a library under a pattern line: %v, want ErrUnsupported naming renew-every and retry-attempts", err)
	}
	if left := children(t); len(left) > 0 {
		t.Errorf("processes started: %v", left)
	}
}

// TestPatternOptionsReachTheLock: the scenario's pattern line reaches the
// lock each client process builds. retry-attempts=1 makes a client that
// finds the lock taken give up at once (the default retries until the
// 5s acquire-timeout, longer than the run); wait-replicas=1 grants
// nothing without a replica (WAIT confirms none) and grants with one.
func TestPatternOptionsReachTheLock(t *testing.T) {
	needRedis(t)
	const start = "start clients=2 ttl=1s duration=1500ms\nworkload work=50ms jitter=0s think=10ms acquire-timeout=5s retry=10ms\n"
	res := runReal(t, catalogConfig(t, "basic", start+"pattern retry-attempts=1\n"))
	if err := res.Err(); err != nil || res.Liveness.Failures == 0 {
		t.Errorf("retry-attempts=1: %d failed acquisitions, %v; want some (a taken lock is not retried)", res.Liveness.Failures, err)
	}
	res = runReal(t, catalogConfig(t, "basic", start+"pattern wait-replicas=1 wait-timeout=5ms\n"))
	if err := res.Err(); err != nil || res.Liveness.Acquisitions != 0 {
		t.Errorf("wait-replicas=1 without a replica: %d acquisitions, %v; want none (WAIT confirms no replica)", res.Liveness.Acquisitions, err)
	}
	res = runReal(t, catalogConfig(t, "basic", start+"replicas delay=5ms\npattern wait-replicas=1\n"))
	if err := res.Err(); err != nil || res.Liveness.Acquisitions == 0 || len(res.Violated) > 0 {
		t.Errorf("wait-replicas=1 with a replica: %s, %v; want acquisitions and no violation", res.Summary(), err)
	}
}
