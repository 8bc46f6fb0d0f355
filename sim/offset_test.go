package sim

import (
	"strings"
	"testing"
	"time"
)

// TestAfterOffsetDelaysATriggeredFault: after= fires a triggered fault
// that long after its point is reached, in true time, deterministically.
func TestAfterOffsetDelaysATriggeredFault(t *testing.T) {
	p := lookupPattern(t, "basic")
	at := run(t, p, parseScenario(t, "start clients=2 duration=1s\npause c1 on=acquired for=10ms\n"), 3)
	later := run(t, p, parseScenario(t, "start clients=2 duration=1s\npause c1 on=acquired after=40ms for=10ms\n"), 3)
	if !at.Faults[0].Fired || !later.Faults[0].Fired {
		t.Fatalf("faults %+v / %+v: want both fired", at.Faults, later.Faults)
	}
	if got := time.Duration(later.Faults[0].At - at.Faults[0].At); got != 40*time.Millisecond {
		t.Errorf("after=40ms fired %v after the point (at %d vs %d), want 40ms", got, later.Faults[0].At, at.Faults[0].At)
	}
	if got := later.Faults[0].Fault; got != "pause c1 on=acquired after=40ms for=10ms" {
		t.Errorf("fault written %q, want the after= offset kept", got)
	}
	again := run(t, p, parseScenario(t, "start clients=2 duration=1s\npause c1 on=acquired after=40ms for=10ms\n"), 3)
	if again.Stats.Checksum != later.Stats.Checksum {
		t.Errorf("checksums %s and %s: same seed, different runs", later.Stats.Checksum, again.Stats.Checksum)
	}
}

// TestAfterOffsetPastTheEndSaysSo: a point reached, but its offset past
// the end of the run, is a fault that did not fire, and the reason says
// why.
func TestAfterOffsetPastTheEndSaysSo(t *testing.T) {
	r := run(t, lookupPattern(t, "basic"), parseScenario(t, "start clients=2 duration=1s\npause c1 on=acquired after=5s for=10ms\n"), 1)
	if f := r.Faults[0]; f.Fired || !strings.Contains(f.Why, "after=5s lands past the run's end") {
		t.Errorf("fault %+v: want not fired, offset past the end", f)
	}
}
