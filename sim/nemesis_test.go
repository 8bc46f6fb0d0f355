package sim

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// occurrencesOf returns the firing records of the occurrences of schedule
// text in res.
func occurrencesOf(res *Result, text string) []FaultFiring {
	var out []FaultFiring
	for _, f := range res.Faults {
		if f.Schedule == text {
			out = append(out, f)
		}
	}
	return out
}

const gcStorm = "pause c* at=0s every=exp(200ms) for=exp(30ms)"

// TestScheduleFiresEveryOccurrenceOnEveryTarget: a schedule on c* draws
// occurrences for each client, each recorded as fired with its schedule.
func TestScheduleFiresEveryOccurrenceOnEveryTarget(t *testing.T) {
	res := run(t, lookupPattern(t, "basic"), parseScenario(t, "start clients=3 duration=2s\n"+gcStorm+"\n"), 7)
	occ := occurrencesOf(res, gcStorm)
	if len(occ) != len(res.Faults) {
		t.Fatalf("%d of %d firing records name the schedule", len(occ), len(res.Faults))
	}
	for _, c := range []string{"c1", "c2", "c3"} {
		n := 0
		for _, f := range occ {
			if !f.Fired {
				t.Errorf("%s did not fire: %s", f.Fault, f.Why)
			}
			if strings.HasPrefix(f.Fault, "pause "+c+" ") {
				n++
			}
		}
		if n < 2 { // mean gap 230ms over 2s: about 8 a client
			t.Errorf("%s got %d pauses, want a Poisson stream of them", c, n)
		}
	}
}

// TestScheduleStreamIsItsOwn: adding a fault, another schedule or a
// client before it leaves a schedule's draws for its targets as they were;
// another seed draws others.
func TestScheduleStreamIsItsOwn(t *testing.T) {
	p := lookupPattern(t, "basic")
	base := occurrencesOf(run(t, p, parseScenario(t, "start clients=2 duration=2s\n"+gcStorm+"\n"), 7), gcStorm)
	more := occurrencesOf(run(t, p, parseScenario(t, "start clients=3 duration=2s\ncrash n1 at=500ms for=5ms persist=yes\n"+
		"starve c* every=exp(100ms) for=10ms\n"+gcStorm+"\n"), 7), gcStorm)
	want := texts(base)
	got := slices.DeleteFunc(texts(more), func(s string) bool { return strings.HasPrefix(s, "pause c3 ") })
	if !slices.Equal(got, want) {
		t.Errorf("the schedule's draws for c1, c2 moved when other faults were added:\n got %q\nwant %q", got, want)
	}
	other := occurrencesOf(run(t, p, parseScenario(t, "start clients=2 duration=2s\n"+gcStorm+"\n"), 8), gcStorm)
	if slices.Equal(texts(other), want) {
		t.Errorf("seeds 7 and 8 drew the same occurrences %q", want)
	}
}

func texts(fs []FaultFiring) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Fault)
	}
	return out
}

// TestScheduleDrawsFollowTheirDistributions: over a long run the
// occurrence count and the drawn values match the distributions (bounds
// wide enough for any seed of this one run; the draws are fixed by it).
func TestScheduleDrawsFollowTheirDistributions(t *testing.T) {
	sc := parseScenario(t, `start clients=4 duration=100s
pause c1 every=exp(100ms) for=10ms
slow c2 every=1s for=exp(50ms)
drift c* rate=uniform(±200ppm)
jump c3 every=2s by=uniform(±1s)
`)
	sc, _, err := expandSchedules(sc, 1)
	if err != nil {
		t.Fatal(err)
	}
	var pauses int
	var slowSum time.Duration
	var slows int
	for _, f := range sc.Faults {
		switch f.Kind {
		case fault.Pause:
			pauses++
		case fault.Slow:
			slows++
			slowSum += f.For
		case fault.Drift:
			if f.PPM < -200 || f.PPM > 200 {
				t.Errorf("%s: rate outside ±200ppm", f.Target)
			}
		case fault.Jump:
			if f.By < -time.Second || f.By > time.Second || f.By == 0 {
				t.Errorf("jump by %v, want a non-zero step in ±1s", f.By)
			}
		}
	}
	if pauses < 700 || pauses > 1100 { // 100s / (100ms gap + 10ms pause) ≈ 909
		t.Errorf("%d pauses, want about 909", pauses)
	}
	if slows < 90 || slows > 100 { // 100s / (1s + ~50ms)
		t.Errorf("%d slow steps, want about 95", slows)
	}
	if mean := slowSum / time.Duration(slows); mean < 35*time.Millisecond || mean > 65*time.Millisecond {
		t.Errorf("mean slow step %v, want about 50ms", mean)
	}
}

// TestScheduleWithTooManyOccurrencesFails: a file whose schedules stand
// for more than scenario.MaxFaults occurrences is refused before the run;
// draws that pass the run's cap all the same (here a scenario that never
// went through Validate) stop the expansion with ErrCap, naming the
// schedule, instead of filling memory.
func TestScheduleWithTooManyOccurrencesFails(t *testing.T) {
	text := "start clients=1 duration=1h\npause c1 every=1us for=1us\n"
	if _, err := scenario.ParseString(text); err == nil || !strings.Contains(err.Error(), "line 2: pause: field every: 1,800,000,001 fault occurrences, over the limit of 100,000") {
		t.Errorf("Parse = %v, want the line, the count and the limit named", err)
	}
	sc := parseScenario(t, "start clients=1 duration=1h\npause c1 every=1s for=1us\n")
	sc.Faults[0].Sched.Every = time.Microsecond
	_, _, err := expandSchedules(sc, 1)
	if !errors.Is(err, ErrCap) || !strings.Contains(err.Error(), `schedule "pause c1 at=0s every=1us for=1us": the run reached its cap: its memory cap of 200000 fault occurrences`) {
		t.Errorf("expandSchedules = %v, want ErrCap naming the schedule", err)
	}
}

// TestRunStopsAtItsOperationCap: a run that records maxOps operations
// stops there with ErrCap and a message naming the cap and the time
// reached, instead of growing its history without bound.
func TestRunStopsAtItsOperationCap(t *testing.T) {
	defer func(old int) { maxOps = old }(maxOps)
	maxOps = 50
	sc := parseScenario(t, "start nodes=1 clients=2 ttl=100ms duration=10s\n")
	_, err := Run(Config{Pattern: lookupPattern(t, "basic"), Scenario: sc, Seed: 1})
	if !errors.Is(err, ErrCap) || !strings.Contains(err.Error(), "its memory cap of 50 operations recorded, by t=") {
		t.Errorf("Run = %v, want ErrCap at 50 operations", err)
	}
}

// TestRunStopsAtItsEventCap: a run that takes maxEvents events stops
// there with ErrCap, even when it records nothing (one Acquire retried
// for the whole run).
func TestRunStopsAtItsEventCap(t *testing.T) {
	defer func(old uint64) { maxEvents = old }(maxEvents)
	maxEvents = 1000
	sc := parseScenario(t, "start nodes=1 clients=3 ttl=100ms duration=10s\nworkload acquire-timeout=24h\n")
	_, err := Run(Config{Pattern: lookupPattern(t, "basic"), Scenario: sc, Seed: 1})
	if !errors.Is(err, ErrCap) || !strings.Contains(err.Error(), "its work cap of 1000 simulator events, by t=") {
		t.Errorf("Run = %v, want ErrCap at 1000 events", err)
	}
}

// TestSplitBrainFiresAndRejoins: a split brain fires, traces the rejoin
// and records it as an event; two clients on different sides are both
// granted the lock.
func TestSplitBrainFiresAndRejoins(t *testing.T) {
	sc := parseScenario(t, "start clients=3 ttl=100ms duration=3s\nreplicas delay=5ms\nsplitbrain n1 at=1s for=1s old=c1\n")
	res := run(t, lookupPattern(t, "basic"), sc, 1)
	if res.FaultsFired() != 1 {
		t.Fatalf("faults: %s", res.FaultsSummary())
	}
	rejoined := false
	for _, e := range res.History.Events {
		if e.Kind == "rejoin" && e.At == int64(2*time.Second) && strings.Contains(e.Detail, "discarded") {
			rejoined = true
		}
	}
	if !rejoined {
		t.Errorf("no rejoin event at 2s in %+v", res.History.Events)
	}
	if res.Safety.Overlaps == 0 {
		t.Errorf("basic under a split brain: no overlap, want c1 (old primary) beside c2/c3 (new primary)")
	}
	if !slices.Contains(res.Violated, "mutex") {
		t.Errorf("Violated = %v, want mutex", res.Violated)
	}
}

// TestSplitBrainOldSideMatters: with replication all but instant a
// failover loses nothing and basic holds; the same failover as a split
// brain overlaps, because the old primary goes on serving c1.
func TestSplitBrainOldSideMatters(t *testing.T) {
	p := lookupPattern(t, "basic")
	split := run(t, p, parseScenario(t, "start clients=2 ttl=100ms duration=3s\nreplicas delay=1us\nsplitbrain n1 at=1s for=1s old=c1\n"), 1)
	failover := run(t, p, parseScenario(t, "start clients=2 ttl=100ms duration=3s\nreplicas delay=1us\nfailover n1 at=1s\n"), 1)
	if failover.Safety.Overlaps != 0 {
		t.Fatalf("a failover with a 1us replication delay overlapped: %+v", failover.Violations)
	}
	if split.Safety.Overlaps == 0 {
		t.Errorf("a split brain with a 1us replication delay did not overlap: the old primary did not serve c1")
	}
}

// TestSchedulesNearTheLargestDuration: a gap, an at= or a for= near the
// largest duration neither wraps the time of the next occurrence (which
// drew occurrences until the cap) nor makes a draw panic.
func TestSchedulesNearTheLargestDuration(t *testing.T) {
	for _, tc := range []struct {
		line string
		want int
	}{
		{"pause c1 every=uniform(2562047h) for=1ms", 0},
		{"pause c1 every=exp(2562047h) for=1ms", 0},
		{"pause c1 at=2562047h every=1h for=1ms", 0},
		{"pause c1 every=1s for=2562047h", 1},
		{"pause c1 every=1s for=uniform(2562047h)", 1},
	} {
		sc := parseScenario(t, "start clients=2 duration=3s\n"+tc.line+"\n")
		got, _, err := expandSchedules(sc, 1)
		if err != nil || len(got.Faults) != tc.want {
			t.Errorf("%s: %d occurrences, %v; want %d", tc.line, len(got.Faults), err, tc.want)
		}
	}
}

// TestRunStopsAtItsHeapCap: a run that finds the process's live heap over
// maxLiveHeap stops with ErrCap naming the cap and what is live.
func TestRunStopsAtItsHeapCap(t *testing.T) {
	defer func(old uint64) { maxLiveHeap = old }(maxLiveHeap)
	maxLiveHeap = 1
	sc := parseScenario(t, "start nodes=1 clients=2 ttl=100ms duration=1s\n")
	runtime.GC() // the live heap is known as of a collection
	_, err := Run(Config{Pattern: lookupPattern(t, "basic"), Scenario: sc, Seed: 1})
	if !errors.Is(err, ErrCap) || !strings.Contains(err.Error(), "its memory cap of 0 MiB of live heap, with ") {
		t.Errorf("Run = %v, want ErrCap at the live heap", err)
	}
}
