package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// TestScheduleCountsAsOneLine: a cell's fault counts follow the scenario's
// lines, a schedule counting once a run however many occurrences it drew
// (fired when any did), and a schedule that draws none in a run is
// counted as missed with that reason.
func TestScheduleCountsAsOneLine(t *testing.T) {
	text := `scenario drawn
start nodes=1 clients=2 ttl=100ms duration=1s
pause c* every=exp(100ms) for=exp(10ms)
crash n1 at=5s
starve c1 at=100ms every=1h for=10ms
`
	sc, err := scenario.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	p, err := pattern.Lookup("basic")
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCell(p, Parsed("drawn.txt", sc, []byte(text)), Seeds{Start: 1, Count: 3})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), []Cell{c}, Options{Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	fs := rep.Cells[0].Faults
	if len(fs) != 3 {
		t.Fatalf("Faults = %+v, want one count per line (3)", fs)
	}
	if f := fs[0]; f.Fault != "pause c* at=0s every=exp(100ms) for=exp(10ms)" || f.Fired != 3 || f.Missed != 0 {
		t.Errorf("Faults[0] = %+v, want the pause schedule fired in all 3 runs", f)
	}
	if f := fs[1]; f.Fault != "crash n1 at=5s persist=no" || f.Missed != 3 {
		t.Errorf("Faults[1] = %+v, want the crash missed in all 3 runs", f)
	}
	if f := fs[2]; f.Missed != 3 || !strings.Contains(f.Why, "drew no occurrence") {
		t.Errorf("Faults[2] = %+v, want the hourly starve missed: it drew no occurrence", f)
	}
	if n := len(rep.Cells[0].NeverFired()); n != 2 {
		t.Errorf("NeverFired() has %d faults, want 2", n)
	}
}
