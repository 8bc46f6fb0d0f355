package sim

import (
	"slices"
	"testing"
)

// longWork is a careless workload (no lease check) whose work lasts 2.5
// TTL: without extension every write lands after the key expired.
const longWork = "start clients=2 duration=1s\nworkload work=250ms jitter=0s check=no"

// TestManualExtendKeepsALongSectionSafe: the same careless workload breaks
// mutex without extension and holds it when the client extends its lease
// by hand every 30ms of work.
func TestManualExtendKeepsALongSectionSafe(t *testing.T) {
	p := lookupPattern(t, "basic")
	bare := run(t, p, parseScenario(t, longWork+"\n"), 1)
	if !slices.Contains(bare.Violated, "mutex") {
		t.Fatalf("without extension: %s; want mutex violated", bare.Summary())
	}
	ext := run(t, p, parseScenario(t, longWork+" extend-every=30ms\n"), 1)
	if len(ext.Violated) != 0 || ext.Clients[0].Extends == 0 || ext.Clients[0].ExtendFailures != 0 {
		t.Errorf("extending every 30ms: %s, c1 extended %d times (%d failed); want no violation and extensions",
			ext.Summary(), ext.Clients[0].Extends, ext.Clients[0].ExtendFailures)
	}
}

// TestManualExtendOnWrite: extend-on=write extends once, after the lease
// check, before the write is prepared.
func TestManualExtendOnWrite(t *testing.T) {
	r := run(t, lookupPattern(t, "basic"), parseScenario(t, "start clients=1 duration=500ms\nworkload extend-every=1ms extend-on=write\n"), 1)
	c := r.Clients[0]
	if c.Extends == 0 || c.Extends != c.Writes {
		t.Errorf("extend-on=write: %d extensions for %d writes, want one each", c.Extends, c.Writes)
	}
}

// TestManualExtendSkipsPatternsWithoutExtend: a pattern that does not
// implement locks.Extender (the watchdog renews by itself) is not extended.
func TestManualExtendSkipsPatternsWithoutExtend(t *testing.T) {
	r := run(t, lookupPattern(t, "watchdog"), parseScenario(t, longWork+" extend-every=30ms\n"), 1)
	if r.Clients[0].Extends != 0 {
		t.Errorf("watchdog extended %d times by hand, want 0", r.Clients[0].Extends)
	}
}

// TestCarefulClientAbandonsAfterAFailedExtend: a careful client whose
// extension is refused (its key expired during a pause) abandons its write.
func TestCarefulClientAbandonsAfterAFailedExtend(t *testing.T) {
	r := run(t, lookupPattern(t, "basic"), parseScenario(t, "start clients=2 duration=1s\nworkload work=100ms jitter=0s extend-every=30ms\npause c1 on=work after=10ms for=150ms\n"), 1)
	c := r.Clients[0]
	if c.ExtendFailures == 0 || r.Safety.Abandoned == 0 || len(r.Violated) != 0 {
		t.Errorf("%s: c1 extensions failed %d, abandoned %d; want a refused extension, an abandoned write, no violation",
			r.Summary(), c.ExtendFailures, r.Safety.Abandoned)
	}
}
