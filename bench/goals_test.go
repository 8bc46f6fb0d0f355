package bench

import (
	"strings"
	"testing"
	"time"
)

func goalStatus(t *testing.T, goals []Goal, prefix string) Goal {
	t.Helper()
	for _, g := range goals {
		if strings.HasPrefix(g.Goal, prefix) {
			return g
		}
	}
	t.Fatalf("no goal starting %q in %+v", prefix, goals)
	return Goal{}
}

func TestFloorGoals(t *testing.T) {
	for _, tc := range []struct {
		ratio float64
		want  string
	}{{0.97, Met}, {0.90, Missed}} {
		goals := Goals(fakeResult(tc.ratio))
		g := goalStatus(t, goals, "basic acquire+release ≥ 95%")
		if g.Status != tc.want {
			t.Errorf("ratio %.2f: basic goal %s (%s), want %s", tc.ratio, g.Status, g.Measured, tc.want)
		}
		if f := goalStatus(t, goals, "fenced acquire+release"); f.Status != NotMeasured {
			t.Errorf("fenced goal without fenced samples = %s, want %s", f.Status, NotMeasured)
		}
	}
}

func TestLevelGoals(t *testing.T) {
	res := fakeResult(1.05)
	g := goalStatus(t, Goals(res), "basic at least level")
	if g.Status != NotMeasured || !strings.Contains(g.Measured, "not linked") {
		t.Errorf("without libraries: %+v, want not measured", g)
	}
	for _, rate := range []struct {
		lib  float64
		want string
	}{{1000, Met}, {1100, Missed}} {
		res := fakeResult(1.05)
		for _, c := range res.Config.Clients {
			for rep := range 2 {
				res.Samples = append(res.Samples, fakeSample("redislock", KindLibrary, singleCell(c, Distinct), rep, rate.lib, time.Millisecond))
			}
		}
		g := goalStatus(t, Goals(res), "basic at least level with redislock")
		if g.Status != rate.want {
			t.Errorf("basic 1050/s vs redislock %.0f/s: %s (%s), want %s", rate.lib, g.Status, g.Measured, rate.want)
		}
	}
}

func TestQuorumAndHotKeyGoals(t *testing.T) {
	res := fakeResult(1)
	res.Config.QuorumNodes = []int{5}
	if g := goalStatus(t, Goals(res), "redlock over 5 nodes"); g.Status != NotMeasured {
		t.Errorf("fan-out goal without 5-node samples = %s, want %s", g.Status, NotMeasured)
	}
	hot := singleCell(64, Hot)
	for _, tc := range []struct {
		rate float64
		wait time.Duration
		want string
	}{{4000, 20 * time.Millisecond, Met}, {4000, 200 * time.Millisecond, Missed}, {1500, 20 * time.Millisecond, Missed}} {
		res := fakeResult(1)
		for rep := range 2 {
			res.Samples = append(res.Samples,
				fakeSample("floor", KindFloor, hot, rep, 1000, 400*time.Millisecond),
				fakeSample("service", KindPattern, hot, rep, tc.rate, 2*tc.wait))
		}
		g := goalStatus(t, Goals(res), "hot key, 64 clients")
		if g.Status != tc.want {
			t.Errorf("service %.0f/s, wait %v vs floor 1000/s, 200ms: %s (%s), want %s", tc.rate, tc.wait, g.Status, g.Measured, tc.want)
		}
	}
}
