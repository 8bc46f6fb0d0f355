package model

import (
	"testing"

	"github.com/anishathalye/porcupine"
)

func wrote(read int64) SectionOut    { return SectionOut{Read: read, Wrote: true} }
func readOnly(read int64) SectionOut { return SectionOut{Read: read} }

var (
	sec        = SectionIn{Key: "res"}
	secUnknown = SectionOut{Unknown: true}
)

func TestCounterModel(t *testing.T) {
	runCases(t, CounterModel(), []historyCase{
		{"sequential sections", []porcupine.Operation{
			op(0, 0, 10, sec, wrote(0)), op(1, 20, 30, sec, wrote(1)), op(0, 40, 50, sec, wrote(2)),
		}, porcupine.Ok},
		{"overlapping, consistent order", []porcupine.Operation{
			op(0, 0, 30, sec, wrote(1)), op(1, 10, 20, sec, wrote(0)),
		}, porcupine.Ok},
		{"overlapping holders lose an update", []porcupine.Operation{
			op(0, 0, 30, sec, wrote(0)), op(1, 10, 40, sec, wrote(0)),
		}, porcupine.Illegal},
		{"stale read after a completed section", []porcupine.Operation{
			op(0, 0, 10, sec, wrote(0)), op(1, 20, 30, sec, wrote(0)),
		}, porcupine.Illegal},
		{"stale holder's write rejected inside a newer section", []porcupine.Operation{
			op(0, 0, 100, SectionIn{Key: "res", Fence: 1}, readOnly(0)),
			op(1, 10, 50, SectionIn{Key: "res", Fence: 2}, wrote(0)),
			op(1, 60, 70, SectionIn{Key: "res", Fence: 2}, wrote(1)),
		}, porcupine.Ok},
		{"read-only section saw a value never written", []porcupine.Operation{
			op(0, 0, 10, sec, wrote(0)), op(1, 20, 30, sec, readOnly(0)),
		}, porcupine.Illegal},
		{"keys are independent", []porcupine.Operation{
			op(0, 0, 10, SectionIn{Key: "a"}, wrote(0)), op(1, 20, 30, SectionIn{Key: "b"}, wrote(0)),
		}, porcupine.Ok},
	})
}

func TestCounterModelUnknown(t *testing.T) {
	runCases(t, CounterModel(), []historyCase{
		{"unknown section took effect", []porcupine.Operation{
			op(0, 0, end, sec, secUnknown), op(1, 20, 30, sec, wrote(1)),
		}, porcupine.Ok},
		{"unknown section did not take effect", []porcupine.Operation{
			op(0, 0, end, sec, secUnknown), op(1, 20, 30, sec, wrote(0)), op(1, 40, 50, sec, wrote(1)),
		}, porcupine.Ok},
		{"the same section known to have written", []porcupine.Operation{
			op(0, 0, 10, sec, wrote(0)), op(1, 20, 30, sec, wrote(0)),
		}, porcupine.Illegal},
		{"two unknowns took effect", []porcupine.Operation{
			op(0, 0, end, sec, secUnknown), op(2, 5, end, sec, secUnknown), op(1, 20, 30, sec, wrote(2)),
		}, porcupine.Ok},
		{"two unknowns cannot make three", []porcupine.Operation{
			op(0, 0, end, sec, secUnknown), op(2, 5, end, sec, secUnknown), op(1, 20, 30, sec, wrote(3)),
		}, porcupine.Illegal},
		{"unknown called after the read cannot explain it", []porcupine.Operation{
			op(1, 0, 10, sec, wrote(1)), op(0, 20, end, sec, secUnknown),
		}, porcupine.Illegal},
	})
}

func TestCounterDescribe(t *testing.T) {
	m := CounterModel()
	for _, c := range []struct {
		in   SectionIn
		out  SectionOut
		want string
	}{
		{sec, wrote(3), "section: read 3, wrote 4"},
		{SectionIn{Key: "res", Fence: 7}, readOnly(3), "section fence=7: read 3, did not write"},
		{sec, secUnknown, "section: outcome unknown (+1 or nothing)"},
	} {
		if got := m.DescribeOperation(c.in, c.out); got != c.want {
			t.Errorf("DescribeOperation(%+v, %+v) = %q, want %q", c.in, c.out, got, c.want)
		}
	}
	if got := m.DescribeState(int64(4)); got != "counter=4" {
		t.Errorf("DescribeState(4) = %q, want %q", got, "counter=4")
	}
}
