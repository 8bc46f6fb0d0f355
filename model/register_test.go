package model

import (
	"testing"

	"github.com/anishathalye/porcupine"
)

func write(value, fence int64) RegisterIn {
	return RegisterIn{Key: "db", Write: true, Fence: fence, Value: value}
}

var (
	read       = RegisterIn{Key: "db"}
	accepted   = RegisterOut{OK: true}
	rejected   = RegisterOut{}
	regUnknown = RegisterOut{Unknown: true}
)

func got(v int64) RegisterOut { return RegisterOut{Value: v} }

func TestRegisterModel(t *testing.T) {
	runCases(t, RegisterModel(), []historyCase{
		{"fenced writes and a stale one rejected", []porcupine.Operation{
			op(0, 0, 10, write(1, 1), accepted), op(1, 20, 30, write(2, 2), accepted),
			op(0, 40, 50, write(3, 1), rejected), op(1, 60, 70, read, got(2)),
		}, porcupine.Ok},
		{"equal token accepted again", []porcupine.Operation{
			op(0, 0, 10, write(1, 2), accepted), op(0, 20, 30, write(2, 2), accepted), op(1, 40, 50, read, got(2)),
		}, porcupine.Ok},
		{"store accepted a stale token", []porcupine.Operation{
			op(0, 0, 10, write(1, 2), accepted), op(1, 20, 30, write(2, 1), accepted),
		}, porcupine.Illegal},
		{"store rejected a current token", []porcupine.Operation{
			op(0, 0, 10, write(1, 1), accepted), op(1, 20, 30, write(2, 2), rejected),
		}, porcupine.Illegal},
		{"read returns a rejected write", []porcupine.Operation{
			op(0, 0, 10, write(1, 2), accepted), op(1, 20, 30, write(9, 1), rejected), op(1, 40, 50, read, got(9)),
		}, porcupine.Illegal},
		{"overlapping writes accepted in token order", []porcupine.Operation{
			op(0, 0, 30, write(3, 3), accepted), op(1, 10, 40, write(2, 2), accepted), op(2, 50, 60, read, got(3)),
		}, porcupine.Ok},
		{"sequential writes accepted against token order", []porcupine.Operation{
			op(0, 0, 10, write(3, 3), accepted), op(1, 20, 30, write(2, 2), accepted),
		}, porcupine.Illegal},
		{"unfenced writes are a plain register", []porcupine.Operation{
			op(0, 0, 10, write(5, 0), accepted), op(1, 20, 30, write(6, 0), accepted), op(1, 40, 50, read, got(6)),
		}, porcupine.Ok},
		{"read of a value never written", []porcupine.Operation{
			op(0, 0, 10, write(5, 0), accepted), op(1, 20, 30, read, got(4)),
		}, porcupine.Illegal},
	})
}

func TestRegisterModelUnknown(t *testing.T) {
	runCases(t, RegisterModel(), []historyCase{
		{"unknown write applied: later lower token rejected", []porcupine.Operation{
			op(0, 0, end, write(5, 3), regUnknown), op(1, 20, 30, write(6, 2), rejected), op(1, 40, 50, read, got(5)),
		}, porcupine.Ok},
		{"unknown write lost: later lower token accepted", []porcupine.Operation{
			op(0, 0, end, write(5, 3), regUnknown), op(1, 20, 30, write(6, 2), accepted), op(1, 40, 50, read, got(6)),
		}, porcupine.Ok},
		{"a known write would forbid it", []porcupine.Operation{
			op(0, 0, 10, write(5, 3), accepted), op(1, 20, 30, write(6, 2), accepted),
		}, porcupine.Illegal},
		{"lower token rejected with no write to explain it", []porcupine.Operation{
			op(1, 0, 10, write(6, 2), rejected), op(0, 20, end, write(5, 3), regUnknown),
		}, porcupine.Illegal},
		{"unknown read changes nothing", []porcupine.Operation{
			op(0, 0, 10, write(5, 1), accepted), op(1, 20, end, read, regUnknown), op(0, 30, 40, read, got(5)),
		}, porcupine.Ok},
	})
}

func TestRegisterDescribe(t *testing.T) {
	m := RegisterModel()
	for _, c := range []struct {
		in   RegisterIn
		out  RegisterOut
		want string
	}{
		{write(7, 3), accepted, "write 7 fence=3: accepted"},
		{write(7, 1), rejected, "write 7 fence=1: rejected"},
		{write(7, 1), regUnknown, "write 7 fence=1: outcome unknown"},
		{read, got(7), "read → 7"},
		{read, regUnknown, "read → ?"},
	} {
		if s := m.DescribeOperation(c.in, c.out); s != c.want {
			t.Errorf("DescribeOperation(%+v, %+v) = %q, want %q", c.in, c.out, s, c.want)
		}
	}
	if s := m.DescribeState(RegisterState{Value: 7, Fence: 3}); s != "value=7 highest fence=3" {
		t.Errorf("DescribeState = %q", s)
	}
}
