package scenario

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPatternDirective: the pattern line sets the pattern's options and,
// through ttl, nodes and retry-delay, the start and workload fields; the
// canonical text keeps them and parses back to the same scenario.
func TestPatternDirective(t *testing.T) {
	s, err := ParseString("start clients=2 duration=1m\n" +
		"pattern ttl=30s renew-every=10s drift=0.02 node-timeout=50ms retry-attempts=3 retry-delay=20ms retry-max-delay=200ms nodes=5\n" +
		"pause c1 on=write for=12s\n")
	if err != nil {
		t.Fatal(err)
	}
	want := PatternOptions{RenewEvery: 10 * time.Second, DriftFactor: 0.02, NodeTimeout: 50 * time.Millisecond,
		RetryAttempts: 3, RetryMaxDelay: 200 * time.Millisecond}
	if d := cmp.Diff(want, s.Pattern); d != "" {
		t.Errorf("Pattern (-want +got):\n%s", d)
	}
	if s.TTL != 30*time.Second || s.Nodes != 5 || s.Workload.Retry != 20*time.Millisecond {
		t.Errorf("ttl %v nodes %d retry %v, want 30s 5 20ms", s.TTL, s.Nodes, s.Workload.Retry)
	}
	text := Format(s)
	if !strings.Contains(text, "pattern renew-every=10s drift=0.02 node-timeout=50ms retry-attempts=3 retry-max-delay=200ms\n") {
		t.Errorf("Format lost the pattern line:\n%s", text)
	}
	back, err := ParseString(text)
	if err != nil {
		t.Fatalf("Parse(Format(s)) = %v\n%s", err, text)
	}
	if d := cmp.Diff(s, back, ignoreLines); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
	if strings.Contains(Format(Default()), "pattern") {
		t.Errorf("a scenario without pattern options writes a pattern line:\n%s", Format(Default()))
	}
}

// TestPatternDirectiveErrors: errors name the line and the field.
func TestPatternDirectiveErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"start ttl=30s\npattern renew-every=30s", "line 2: pattern: field renew-every: locks: RenewEvery (30s) must be less than TTL (30s)"},
		{"start\n\npattern drift=1.5", "line 3: pattern: field drift: locks: DriftFactor (1.5) must be in [0, 0.5)"},
		{"start\npattern drift=NaN", `line 2: pattern: field drift: bad number "NaN"`},
		{"start\npattern drift=x", `line 2: pattern: field drift: bad number "x"`},
		{"start\npattern retry-attempts=-1", `line 2: pattern: field retry-attempts: bad count "-1"`},
		{"start\npattern node-timeout=-1ms", "line 2: pattern: field node-timeout: locks: NodeTimeout (-1ms) must not be negative"},
		{"start\npattern retry-max-delay=soon", `line 2: pattern: field retry-max-delay: bad duration "soon"`},
		{"start\npattern renew=1s", `line 2: pattern: unknown field "renew"`},
		{"start ttl=1s\npattern ttl=30s", "line 2: pattern: field ttl: also given on line 1"},
		{"pattern nodes=3\nstart nodes=5", "line 2: start: field nodes: also given on line 1"},
		{"start\nworkload retry=5ms\npattern retry-delay=10ms", "line 3: pattern: field retry-delay: also given on line 2"},
		{"start\npattern ttl=1s\npattern ttl=1s", "line 3: pattern: given twice (first on line 2)"},
	} {
		_, err := ParseString(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tc.text, err, tc.want)
		}
	}
}
