package realmode

import (
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/sim/scenario"
)

// TestFaultFirings: a real run records, per fault of its scenario, whether
// it fired and when, as the simulator does; a fault that never fired says
// why; and a triggered fault with after= fires that long after its point,
// not at it.
func TestFaultFirings(t *testing.T) {
	needRedis(t)
	sc := scenarioText(t, `
scenario firings
start nodes=1 clients=2 ttl=1s duration=1s
workload work=5ms jitter=1ms think=5ms
slow c1 on=acquired after=300ms for=1ms
slow c2 on=acquired n=100000 for=1ms
slow c1 at=10s for=1ms
`)
	res := runReal(t, testConfig(t, "basic", sc, 1))
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	if len(res.Faults) != 3 {
		t.Fatalf("faults: %+v, want one record per fault of the scenario (3)", res.Faults)
	}
	after, never, late := res.Faults[0], res.Faults[1], res.Faults[2]
	if !after.Fired || after.At < int64(300*time.Millisecond) {
		t.Errorf("after=300ms: %+v, want fired at or past 300ms", after)
	}
	if never.Fired || !strings.Contains(never.Why, "c2 reached acquired only") {
		t.Errorf("n=100000: %+v, want not fired, saying how often c2 reached acquired", never)
	}
	if late.Fired || !strings.Contains(late.Why, "the run ends at 1s") {
		t.Errorf("at=10s: %+v, want not fired: the run ends at 1s", late)
	}
	if got := res.FaultsSummary(); !strings.HasPrefix(got, "faults fired: 1 of 3") {
		t.Errorf("summary %q", got)
	}
}

func scenarioText(t *testing.T, text string) scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}
