package simprop

import (
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/history"
)

// hop is one op of a hand-built history.
type hop struct {
	client     int
	kind       string
	call, ret  int64
	ok         bool
	unknownRet bool
	mode       string
}

func hist(ops ...hop) *history.History {
	h := &history.History{Source: "test"}
	for _, o := range ops {
		op := history.Op{Client: o.client, Kind: o.kind, Call: o.call, Return: o.ret, OK: o.ok, Mode: o.mode}
		if o.unknownRet {
			op.Return = history.Unknown
		}
		h.Ops = append(h.Ops, op)
	}
	return h
}

// section is one client's acquire → read → write → release, all granted.
func section(c int, mode string, call, granted, read, write, release int64) []hop {
	return []hop{
		{c, history.Acquire, call, granted, true, false, mode},
		{c, history.Read, read, read + 1, true, false, ""},
		{c, history.Write, write, write + 1, true, false, ""},
		{c, history.Release, release, release + 1, true, false, mode},
	}
}

func join(parts ...[]hop) []hop {
	var out []hop
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestHoldingsFollowTheHistory(t *testing.T) {
	h := hist(join(
		[]hop{{1, history.Acquire, 0, 5, false, false, ""}},  // refused: acquisition 1, no holding
		section(1, history.ModeRead, 10, 20, 21, 40, 41),     // acquisition 2, a read holding
		[]hop{{2, history.Acquire, 0, 0, false, true, ""}},   // outcome unknown: no holding
		section(2, "", 50, 60, 61, 70, 71),                   // c2's acquisition 2
		[]hop{{2, history.Read, 80, 81, true, false, ""}},    // after its release: under no holding
		[]hop{{1, history.Acquire, 90, 95, true, false, ""}}, // c1's acquisition 3 …
		[]hop{{1, history.Acquire, 96, 97, true, false, ""}}, // … entered again (nested) …
		[]hop{{1, history.Read, 98, 99, true, false, ""}},
		[]hop{{1, history.Release, 100, 101, true, false, ""}}, // … left once: still held
		[]hop{{1, history.Write, 110, 111, true, false, ""}},
		[]hop{{1, history.Release, 112, 113, true, false, ""}},
		[]hop{{1, history.Write, 120, 121, true, false, ""}}, // after the last release: under none
	)...)
	got := holdings(h)
	want := []holding{
		{client: 1, n: 2, call: 10, start: 20, end: 41, read: true},
		{client: 2, n: 2, call: 50, start: 60, end: 71},
		{client: 1, n: 3, call: 90, start: 95, end: 111},
	}
	if len(got) != len(want) {
		t.Fatalf("holdings = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("holding %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestWriterExclusion(t *testing.T) {
	for _, tc := range []struct {
		name string
		hs   []holding
		want string // "" or a substring of the report
	}{
		{"readers share", []holding{{client: 1, start: 0, end: 10, read: true}, {client: 2, start: 5, end: 15, read: true}}, ""},
		{"writer beside a reader", []holding{{client: 1, start: 0, end: 10, read: true}, {client: 2, start: 5, end: 15}}, "c2's write lease"},
		{"writers in turn", []holding{{client: 1, start: 0, end: 10}, {client: 2, start: 10, end: 15}}, ""},
		{"one client's own leases", []holding{{client: 1, start: 0, end: 10}, {client: 1, start: 5, end: 15}}, ""},
	} {
		got := writerExclusion(tc.hs)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: writerExclusion = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestHolderBound(t *testing.T) {
	three := []holding{{client: 1, start: 0, end: 10}, {client: 2, start: 2, end: 10}, {client: 3, start: 4, end: 6}}
	if got := holderBound(three, 2); !strings.Contains(got, "3 leases held at t=0.000000s") {
		t.Errorf("three at once, bound 2: %q", got)
	}
	if got := holderBound(three, 3); got != "" {
		t.Errorf("three at once, bound 3: %q, want none", got)
	}
	touching := []holding{{client: 1, start: 0, end: 4}, {client: 2, start: 2, end: 10}, {client: 3, start: 4, end: 6}}
	if got := holderBound(touching, 2); got != "" {
		t.Errorf("a lease ending as another starts: %q, want none (half-open)", got)
	}
}

func TestQueueJump(t *testing.T) {
	margin := 2 * time.Millisecond
	ms := int64(time.Millisecond)
	waiter := holding{client: 1, call: 0, start: 50 * ms}
	for _, tc := range []struct {
		name  string
		other holding
		jump  bool
	}{
		{"called later, granted first", holding{client: 2, call: 10 * ms, start: 20 * ms}, true},
		{"called within the latency margin", holding{client: 2, call: 1 * ms, start: 20 * ms}, false},
		{"called later, granted later", holding{client: 2, call: 10 * ms, start: 60 * ms}, false},
		{"called earlier", holding{client: 2, call: -ms, start: 20 * ms}, false},
	} {
		got := queueJump([]holding{waiter, tc.other}, margin)
		if (got != "") != tc.jump {
			t.Errorf("%s: queueJump = %q, want a jump: %v", tc.name, got, tc.jump)
		}
	}
}
