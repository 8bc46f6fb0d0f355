package realmode

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// TestStopsLeaveOutPlannedPauses: a heartbeat gap is charged to the
// machine only past the scenario's own pauses of that client.
func TestStopsLeaveOutPlannedPauses(t *testing.T) {
	ms := int64(time.Millisecond)
	c := &coord{cfg: Config{Pattern: pattern.Pattern{Name: "basic"}}, sc: scenario.Scenario{TTL: 100 * time.Millisecond},
		state: []*clientState{{name: "c1"}, {name: "c2"}},
		hist:  &history.History{Events: []history.Event{{Kind: "pause", Target: "c1", At: 100 * ms, End: 250 * ms}}}}
	c.stalls = []stall{
		{client: 0, from: 95 * ms, to: 255 * ms}, // the planned pause, and 10ms the machine added
		{client: 1, from: 100 * ms, to: 130 * ms},
	}
	stops, over := c.stopsResult()
	if stops[0].Max != 10*time.Millisecond || stops[1].Max != 30*time.Millisecond || !over {
		t.Errorf("stops %+v, past TTL/4 %v; want c1 10ms (its pause left out), c2 30ms, past", stops, over)
	}
	c.stalls = c.stalls[:1]
	if _, over := c.stopsResult(); over {
		t.Errorf("a 10ms unplanned stop marked past TTL/4 (25ms)")
	}
}

// TestUnplannedStopMeasured: a client stopped by someone else (this
// test's SIGSTOP, as a loaded machine deschedules it) reports the gap
// its heartbeat saw, and the run is marked as descheduled.
func TestUnplannedStopMeasured(t *testing.T) {
	needRedis(t)
	sc := builtin(t, "steady", 1)
	sc.Clients, sc.Duration, sc.TTL = 2, 3*time.Second, 400*time.Millisecond
	const stop = 300 * time.Millisecond
	go func() {
		// Real processes: wait until both clients run, then stop one.
		var pid int
		clocktest.Eventually(time.Minute, func() bool {
			for _, ch := range children(t) {
				if !strings.HasSuffix(ch, " redis-server") {
					pid, _ = strconv.Atoi(strings.Fields(ch)[0])
				}
			}
			return pid != 0 && len(children(t)) >= 1+sc.Clients
		})
		time.Sleep(500 * time.Millisecond) // real time: into the run of real processes
		_ = syscall.Kill(pid, syscall.SIGSTOP)
		time.Sleep(stop) // real time: the stop the client's own heartbeat must see
		_ = syscall.Kill(pid, syscall.SIGCONT)
	}()
	res := runReal(t, testConfig(t, "basic", sc, 1))
	var largest time.Duration
	for _, s := range res.Stops {
		largest = max(largest, s.Max)
	}
	if largest < stop-50*time.Millisecond || !res.Descheduled {
		t.Errorf("stops %+v, descheduled %v: want a client's stop of about %v, past TTL/4", res.Stops, res.Descheduled, stop)
	}
}
