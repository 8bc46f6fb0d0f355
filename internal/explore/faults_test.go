package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// deadFaultCell is fenced under a 1s scenario with a fault that fires, one
// after the end of the run and one at a point reached too few times.
func deadFaultCell(t *testing.T, seeds Seeds) []Cell {
	t.Helper()
	text := `scenario dead
start nodes=1 clients=2 ttl=100ms duration=1s
pause c1 at=100ms for=10ms
crash n1 at=5s
pause c2 on=write n=100000 for=10ms
`
	sc, err := scenario.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	p, err := pattern.Lookup("fenced")
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCell(p, Parsed("dead.txt", sc, []byte(text)), seeds)
	if err != nil {
		t.Fatal(err)
	}
	return []Cell{c}
}

func TestRunCountsFaultsThatDidNotFire(t *testing.T) {
	rep, err := Run(context.Background(), deadFaultCell(t, Seeds{Start: 3, Count: 4}), Options{Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Cells[0]
	if len(c.Faults) != 3 {
		t.Fatalf("Faults = %+v, want 3", c.Faults)
	}
	if f := c.Faults[0]; f.Fired != 4 || f.Missed != 0 {
		t.Errorf("Faults[0] = %+v, want fired in all 4 runs", f)
	}
	if f := c.Faults[1]; f.Fired != 0 || f.Missed != 4 || f.FirstMissed == nil || *f.FirstMissed != 3 || f.Why != "the run ends at 1s" {
		t.Errorf("Faults[1] = %+v, want missed in 4 runs, first seed 3: the run ends at 1s", f)
	}
	never := c.NeverFired()
	if len(never) != 2 || never[0].Fault != "crash n1 at=5s persist=no" {
		t.Errorf("NeverFired() = %+v, want the crash and the 100000th write", never)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "FAULT NOT FIRED fenced under dead: crash n1 at=5s persist=no did not fire in 4 of 4 runs; seed 3: the run ends at 1s"
	if !strings.Contains(b.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, b.String())
	}
}

func TestShardsMergeFaultCounts(t *testing.T) {
	cells := deadFaultCell(t, Seeds{Start: 1, Count: 5})
	whole, err := Run(context.Background(), cells, Options{Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	var shards []*Report
	for _, i := range []int{1, 0} {
		rep, err := Run(context.Background(), cells, Options{Parallel: 1, Shard: Shard{I: i, N: 2}})
		if err != nil {
			t.Fatal(err)
		}
		back, err := ReadJSON(strings.NewReader(jsonOf(t, rep)))
		if err != nil {
			t.Fatal(err)
		}
		shards = append(shards, back)
	}
	merged, err := Merge(shards...)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := jsonOf(t, whole), jsonOf(t, merged); a != b {
		t.Errorf("merged shards differ from the unsharded run:\n%s\n---\n%s", a, b)
	}
}
