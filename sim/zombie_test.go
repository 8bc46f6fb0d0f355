package sim

import (
	"fmt"
	"slices"
	"testing"
)

// A holder that keeps running on a lock it lost is already judged by the
// mutex claim: a holding lasts, for the oracle, from its grant to its
// holder's last act, so a write made after another client was granted the
// lock overlaps that client's holding even when it has been released since.
// Here c1 is paused (300ms, TTL 100ms) between its read and its write; c2
// is granted the lock at about 120ms and releases it 20ms later; c1 then
// writes at about 320ms. The careless c1 (check=no) is caught; the careful
// one checks its lease, finds it gone and abandons the write.
func TestZombieHolderIsAnOverlap(t *testing.T) {
	p := lookupPattern(t, "basic")
	const text = "start clients=2 ttl=100ms duration=1s\nworkload check=%s think=2s work=20ms jitter=0s\npause c1 on=work for=300ms\n"
	careless := run(t, p, parseScenario(t, fmt.Sprintf(text, "no")), 1)
	if !slices.Contains(careless.Violated, "mutex") || careless.Safety.Overlaps != 1 {
		t.Errorf("careless zombie: violated %v, overlaps %d; want mutex, one overlap", careless.Violated, careless.Safety.Overlaps)
	}
	if len(careless.Violations) == 0 || careless.Violations[0].Kind != "overlap" {
		t.Fatalf("careless zombie: violations %+v, want the overlap first", careless.Violations)
	}
	careful := run(t, p, parseScenario(t, fmt.Sprintf(text, "yes")), 1)
	if careful.Safety.Overlaps != 0 || careful.Safety.Abandoned != 1 {
		t.Errorf("careful holder: overlaps %d, abandoned %d; want none, and its write abandoned", careful.Safety.Overlaps, careful.Safety.Abandoned)
	}
	// fenced claims no mutex: the zombie's write carries a stale token and
	// the store rejects it, which is the store's protection, not a finding.
	fenced := run(t, lookupPattern(t, "fenced"), parseScenario(t, fmt.Sprintf(text, "no")), 1)
	if slices.Contains(fenced.Violated, "safe-store") || slices.Contains(fenced.Violated, "fencing") || fenced.Safety.StaleRejected != 1 {
		t.Errorf("fenced zombie: violated %v, stale writes rejected %d; want its write rejected", fenced.Violated, fenced.Safety.StaleRejected)
	}
}
