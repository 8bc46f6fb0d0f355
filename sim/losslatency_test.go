package sim

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"
)

// blackholeRenewal is the gate's blackhole-renewal scenario: c1's
// replies from the node vanish for 3 TTL from its first renewal on, while
// c1 works 2.5 TTL.
func blackholeRenewal(clients, hole string) string {
	return "start clients=" + clients + " ttl=100ms duration=1s\nworkload work=250ms jitter=0s\nblackhole c1|n1 on=c1:renew-sent for=" + hole + "\n"
}

// TestLossSignalInTimeOverABlackHole: Watchdog and Service, whose
// renewals vanish into a half-open connection, learn of the loss by their
// validity timer, no later than the key expires: the oracle sees the loss
// in every run and no signal past the bound.
func TestLossSignalInTimeOverABlackHole(t *testing.T) {
	for _, name := range []string{"watchdog", "service"} {
		p := lookupPattern(t, name)
		fired := 0
		for seed := uint64(1); seed <= 8; seed++ {
			r := run(t, p, parseScenario(t, blackholeRenewal("2", "300ms")), seed)
			if !r.Faults[0].Fired {
				continue // c2 won the lock, and c1's first section was too short to renew
			}
			fired++
			l := r.LossSignal
			if l.Losses == 0 || l.Signalled != l.Losses {
				t.Fatalf("%s seed %d: fault %+v, loss signal %+v: want the black hole to cost c1 its lock, and c1 told", name, seed, r.Faults[0], l)
			}
			if l.Late != 0 || l.Max > l.Bound || l.Bound != 70*time.Millisecond || slices.Contains(r.Violated, "loss-signal") {
				t.Errorf("%s seed %d: loss signal %+v, violated %v: want every loss signalled within the 70ms bound", name, seed, l, r.Violated)
			}
		}
		if fired < 4 {
			t.Errorf("%s: the black hole fired in %d of 8 runs, want most", name, fired)
		}
	}
}

// TestLateDoneVariantCaught: watchdog-late-done, whose Done waits for a
// renewal's outcome, keeps it open long past the key's expiry over the
// same black hole: a late-signal violation and a broken loss-signal
// claim.
func TestLateDoneVariantCaught(t *testing.T) {
	r := run(t, lookupPattern(t, "watchdog-late-done"), parseScenario(t, blackholeRenewal("2", "300ms")), 1)
	if r.LossSignal.Late == 0 || r.LossSignal.Max <= r.LossSignal.Bound || !slices.Contains(r.Violated, "loss-signal") {
		t.Fatalf("loss signal %+v, violated %v: want a loss signalled past the bound", r.LossSignal, r.Violated)
	}
	if firstOf(r, "late-signal") == nil {
		t.Errorf("violations %+v: want a late-signal finding", r.Violations)
	}
}

// TestOnlyTheLossSignalSeesALateDone: with one client nobody can overlap
// the holder, so mutual exclusion, the store and progress all pass the
// late-Done variant; the loss-signal oracle alone finds it. Under a 150ms
// hole its renewals time out (unknown outcomes it does not count against
// its lease) until the hole closes and one is refused: Done closes past
// the bound. Under a 220ms hole the holder writes while the hole is still
// open, blind, on a lock the server had let go. The correct Watchdog
// passes both: its validity timer tells it in time.
func TestOnlyTheLossSignalSeesALateDone(t *testing.T) {
	for _, tc := range []struct {
		hole  string
		blind bool
	}{{"150ms", false}, {"220ms", true}} {
		s := parseScenario(t, blackholeRenewal("1", tc.hole))
		bad := run(t, lookupPattern(t, "watchdog-late-done"), s, 1)
		if !slices.Equal(bad.Violated, []string{"loss-signal"}) || bad.LossSignal.Late == 0 || (bad.LossSignal.Blind > 0) != tc.blind {
			t.Errorf("watchdog-late-done, hole %s: violated %v, loss signal %+v: want loss-signal alone, late, blind %v", tc.hole, bad.Violated, bad.LossSignal, tc.blind)
		}
		good := run(t, lookupPattern(t, "watchdog"), s, 1)
		if len(good.Violated) != 0 || good.LossSignal.Blind != 0 || good.LossSignal.Late != 0 {
			t.Errorf("watchdog, hole %s: violated %v, loss signal %+v: want nothing", tc.hole, good.Violated, good.LossSignal)
		}
	}
}

// TestLossLatencyIsTrueTime: a Basic holder whose clock runs at half
// speed sees its 97ms of validity (100ms less the drift allowance) last
// 194ms of true time from the moment it sent its SET. The key expires once
// the node's millisecond clock passes the SET's arrival (rounded down) +
// 100ms: Done closes 93ms after that, less the request's flight, plus the
// rounding — measured on the virtual clock.
func TestLossLatencyIsTrueTime(t *testing.T) {
	s := parseScenario(t, "start clients=1 ttl=100ms duration=1s\nworkload work=300ms jitter=0s\ndrift c1 at=0s rate=-50%\n")
	r := run(t, lookupPattern(t, "basic"), s, 1)
	l := r.LossSignal
	if l.Losses == 0 || l.Late != l.Losses || l.Blind != 0 || l.Max <= 92*time.Millisecond || l.Max > 94*time.Millisecond {
		t.Errorf("loss signal %+v: want each loss signalled 92–94ms late, none acted on", l)
	}
	if l.Bound != time.Millisecond {
		t.Errorf("bound = %v, want 1%% of the 100ms TTL", l.Bound)
	}
}

// TestAPauseIsNotChargedToTheLock: a holder paused 300ms right after its
// grant cannot be told anything; its timer fires as it resumes. The pause
// is left out of the latency: the loss is signalled in time.
func TestAPauseIsNotChargedToTheLock(t *testing.T) {
	s := parseScenario(t, "start clients=1 ttl=100ms duration=1s\npause c1 on=acquired for=300ms\n")
	l := run(t, lookupPattern(t, "basic"), s, 1).LossSignal
	if l.Losses != 1 || l.Signalled != 1 || l.Late != 0 || l.Max != 0 {
		t.Errorf("loss signal %+v: want one loss, signalled as the pause ended (latency 0)", l)
	}
}

// TestNoLossNoSignal: a run without faults loses no lock, and a holding
// that ends by its holder's release is no loss.
func TestNoLossNoSignal(t *testing.T) {
	r := runBuiltin(t, "watchdog", "steady", 1)
	if l := r.LossSignal; l.Losses != 0 || l.Untracked != 0 || l.Max != 0 {
		t.Errorf("steady: loss signal %+v, want no loss and every holding tracked", l)
	}
}

// TestAcquireAttemptFiresAtTheNthAttempt: a fault on acquire-attempt n=3
// fires as c2 sends the request of the third attempt of one acquisition —
// after exactly two refused SETs of that acquisition — and once.
func TestAcquireAttemptFiresAtTheNthAttempt(t *testing.T) {
	s := parseScenario(t, "start clients=2 ttl=100ms duration=1s\nworkload work=60ms\nslow c2 on=acquire-attempt n=3 for=1ms\n")
	var buf bytes.Buffer
	r, err := Run(Config{Pattern: lookupPattern(t, "basic"), Scenario: s, Seed: 1, Trace: &buf})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Faults[0].Fired {
		t.Fatalf("did not fire: %s", r.Faults[0].Why)
	}
	sets, fired := 0, 0
	for _, line := range strings.Split(buf.String(), "\n") {
		switch {
		case strings.Contains(line, " c2 acquired ") || strings.Contains(line, " c2 acquire failed"):
			sets = 0
		case strings.Contains(line, " c2→n1 SET lock "):
			sets++
		case strings.Contains(line, "FAULT slow c2 on=acquire-attempt n=3"):
			fired++
			if sets != 3 {
				t.Errorf("fired after %d SETs of the acquisition, want 3 (the third attempt's):\n%s", sets, buf.String())
			}
		}
	}
	if fired != 1 {
		t.Errorf("fired %d times, want once", fired)
	}
}

// TestAcquireAttemptNotReached: an attempt no acquisition reaches does not
// fire, and the firing record says how far the acquisitions got.
func TestAcquireAttemptNotReached(t *testing.T) {
	s := parseScenario(t, "start clients=1 ttl=100ms duration=300ms\nslow c1 on=acquire-attempt n=2 for=1ms\n")
	f := run(t, lookupPattern(t, "basic"), s, 1).Faults[0]
	if f.Fired || f.Why != "no acquisition of c1 made 2 attempts (the most was 1)" {
		t.Errorf("firing %+v: want not fired, one attempt at most", f)
	}
}

// TestADoneClosedInReleaseIsTheSignal: c1 is paused after its write, past
// its key's expiry, and calls Release as it resumes: Release finds the
// validity run out and closes Done at once, before its request leaves.
// That is the signal, with the pause aside latency 0 — not the error the
// reply brings a round trip later.
func TestADoneClosedInReleaseIsTheSignal(t *testing.T) {
	s := parseScenario(t, "start clients=2 ttl=100ms duration=500ms\npause c1 on=release for=83ms\n")
	for _, name := range []string{"basic", "fair"} {
		l := run(t, lookupPattern(t, name), s, 1).LossSignal
		if l.Losses == 0 || l.Signalled != l.Losses || l.Late != 0 || l.Max != 0 {
			t.Errorf("%s: loss signal %+v: want the loss signalled as c1 resumed, latency 0", name, l)
		}
	}
}
