package sim

import (
	"fmt"
	"slices"
	"testing"
)

// starved: c1's watchdog gets no CPU for 2 TTL as soon as c1 holds the
// lock, while c1 works 2.5 TTL.
const starved = "start clients=2 duration=1s\nworkload work=250ms jitter=0s%s\nstarve c1 on=acquired for=200ms\n"

// TestStarvedWatchdog: the starved watchdog renews nothing, the key
// expires under its working holder and c2 takes it. The careful holder
// sees its lease run out and abandons its write; the careless one writes
// beside c2. Starved, the careful holder's validity timer does not run
// either: it learns of the loss only at its own lease check, later than
// the bound (loss-signal), without acting on the lost lock. A pause of the same length stops the workload too, so only
// starve shows this.
func TestStarvedWatchdog(t *testing.T) {
	p := lookupPattern(t, "watchdog")
	careful := run(t, p, parseScenario(t, fmt.Sprintf(starved, "")), 1)
	if !careful.Faults[0].Fired || !slices.Equal(careful.Violated, []string{"loss-signal"}) || careful.Safety.Abandoned == 0 || careful.LossSignal.Blind != 0 {
		t.Errorf("careful: %s, abandoned %d, loss signal %+v: want the starve fired, a write abandoned, no blind act, no violation but loss-signal",
			careful.Summary(), careful.Safety.Abandoned, careful.LossSignal)
	}
	careless := run(t, p, parseScenario(t, fmt.Sprintf(starved, " check=no")), 1)
	if !slices.Contains(careless.Violated, "mutex") {
		t.Errorf("careless: %s: want mutex violated", careless.Summary())
	}
	calm := run(t, p, parseScenario(t, fmt.Sprintf("start clients=2 duration=1s\nworkload work=250ms jitter=0s%s\n", " check=no")), 1)
	if len(calm.Violated) != 0 {
		t.Errorf("careless, not starved: %s: want no violation (the watchdog renews)", calm.Summary())
	}
}
