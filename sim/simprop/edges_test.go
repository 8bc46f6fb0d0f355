package simprop

import (
	"testing"
	"time"

	"github.com/locksim/locksim/internal/catalog"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// TestEnvelopesAreTight: what an envelope leaves out, it leaves out for a
// reason. Widen it by one excluded fault and rapid finds a counterexample
// on a correct pattern that claims the property: the claim is not made
// there, and the documentation says so.
func TestEnvelopesAreTight(t *testing.T) {
	for _, tc := range []struct {
		name, pattern, property string
		widen                   func(p *Property)
		checks                  int // 0: huntChecks
	}{
		{"pause between check and write", "basic", "mutex",
			func(p *Property) { p.Envelope.Pause.Points = append(p.Envelope.Pause.Points, fault.Write) }, 0},
		{"pause between grant and read", "watchdog", "mutex",
			func(p *Property) { p.Envelope.Pause.Points = append(p.Envelope.Pause.Points, fault.Acquired) }, 0},
		{"node clock stepped forward", "basic", "mutex",
			func(p *Property) {
				p.Envelope = Envelope{Name: "forward", MaxFaults: 5, Node: Clocks{Jump: 2 * time.Second, Forward: true}}
			}, 0},
		{"slow link to the store", "reentrant", "mutex",
			func(p *Property) { p.Envelope.Links.DBSlow = true }, 0},
		{"immediate restart without persistence", "basic", "mutex",
			func(p *Property) { p.Envelope.Crash.Volatile = time.Millisecond }, 0},
		{"failover", "service", "mutex",
			func(p *Property) { p.Envelope.Failover = true }, 0},
		// Releases give up after a TTL here, and slow links are the only
		// fault drawn: a release request delayed past that arrives while
		// the owner holds the lock again, and takes that holding's entry.
		{"a release request that outlives Release", "reentrant", "mutex",
			func(p *Property) {
				p.Envelope = Envelope{Name: "slow-links", MaxFaults: 5, Links: Links{Slow: time.Second}}
				p.base = func(s *scenario.Scenario) { s.Workload.AcquireTimeout = TTL }
			}, 1000},
		{"pause of a renewing holder", "watchdog", "renewal",
			func(p *Property) { p.Envelope.Pause = Steps{Points: fault.Points, Max: 5 * TTL} }, 0},
		{"restart without persistence", "fenced", "safe-store",
			func(p *Property) { p.Envelope.Crash.Volatile = time.Millisecond }, 0},
		{"failover", "fenced", "safe-store",
			func(p *Property) { p.Envelope.Failover = true }, 0},
	} {
		t.Run(tc.pattern+"/"+tc.name, func(t *testing.T) {
			p, err := Lookup(tc.property)
			if err != nil {
				t.Fatal(err)
			}
			tc.widen(&p)
			p.Name += "-widened"
			pat, err := catalog.Lookup(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			n := checksOr(max(tc.checks, huntChecks))
			h := hunt(t, p, pat, n, 1, shrinkDefault, t.TempDir())
			if !h.Found() || h.Last.Err != nil {
				t.Fatalf("%s kept %s for %d checks with %s allowed (error %v): is the exclusion still needed?",
					tc.pattern, tc.property, n, tc.name, h.Last.Err)
			}
			t.Logf("found after %d checks: %s\n%s", h.Checks, h.First.Violation, h.First.Case.GoString())
		})
	}
}
