package scenario

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/sim/fault"
)

// manyLines is a file of n schedule lines of 1,000 clients, each on its
// own within the limit.
func manyLines(n int) string {
	var b strings.Builder
	b.WriteString("start clients=1000 duration=1s\n")
	for range n {
		b.WriteString("pause c* every=100ms for=1ms\n")
	}
	return b.String()
}

// TestFaultOccurrencesBounded: a file whose fault lines stand for more
// than MaxFaults occurrences is refused by Parse, naming the line, the
// count and the limit, before anything is drawn.
func TestFaultOccurrencesBounded(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"start clients=1000\npause c* every=10us for=1us\n",
			"line 2: pause: field every: 90,910,000 fault occurrences, over the limit of 100,000 in a run (1,000 targets × at most 90,910 each in 1s"},
		{"start clients=1 duration=24h\njump c1 every=exp(1ms) by=uniform(±1ms)\n",
			"line 2: jump: field every: 86,400,001 fault occurrences, over the limit of 100,000 in a run (1 targets × on average 86,400,001 each in 24h0m0s"},
		{manyLines(20_000), "line 12: pause: the fault lines up to this one stand for 110,000 fault occurrences (this one 10,000), over the limit of 100,000 in a run"},
	} {
		_, err := ParseString(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%.60q) = %v, want an error containing %q", tc.text, err, tc.want)
		}
	}
	if _, err := ParseString(manyLines(10)); err != nil {
		t.Errorf("10 lines of 1,000 clients × 10: %v", err)
	}
}

// TestNodeScheduleBoundedOnResolve: n* is counted with the node count
// once Resolve knows it.
func TestNodeScheduleBoundedOnResolve(t *testing.T) {
	s, err := ParseString("start duration=1h\njump n* every=1s by=1ms\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Resolve(5); err != nil {
		t.Errorf("Resolve(5): %v", err)
	}
	if _, err := s.Resolve(99); err == nil || !strings.Contains(err.Error(), "line 2: jump: field every: 356,499 fault occurrences") {
		t.Errorf("Resolve(99) = %v, want the count over 99 nodes", err)
	}
}

// countFixed counts, as the simulator draws them, the occurrences of a
// schedule on one target in a run of length d, with every drawn for=
// taken as 0 (its least): the most a gap given as a value can draw.
func countFixed(f fault.Fault, d time.Duration) int64 {
	if f.Sched.Every <= 0 {
		return 1
	}
	var n int64
	for t := f.When.At; ; n++ {
		t += max(f.Sched.Every, minGap)
		if t >= d {
			return n
		}
		if f.Sched.ForDist == fault.Fixed {
			if f.For >= d-t {
				return n + 1
			}
			t += f.For
		}
	}
}

// FuzzParseBounds: Parse either refuses a file or returns a scenario
// whose fault lines stand for at most MaxFaults occurrences, with every
// node count Resolve may give it; and a gap given as a value never draws
// more than Occurrences counts.
func FuzzParseBounds(f *testing.F) {
	f.Add("start clients=1000\npause c* every=10us for=1us\n")
	f.Add("start clients=1000 duration=24h\npause c* every=exp(1ms) for=exp(1us)\n")
	f.Add("start duration=24h\ncrash n* every=1us for=1us persist=yes\n")
	f.Add("start clients=1 duration=1h\npause c1 every=1us for=1us\n")
	f.Add(manyLines(12))
	f.Add("start clients=3\npause c* every=exp(1s) for=exp(50ms)\ndrift c* rate=uniform(±200ppm)\n")
	f.Add("start nodes=3\ncrash n* at=1s every=uniform(10s) for=uniform(200ms) persist=yes\njump c1 every=5s by=uniform(±1s)\n")
	f.Add("start clients=2 duration=2s\npause c1 at=1500ms every=100ms for=50ms\n")
	f.Add("start clients=2\npause c1 every=0s for=10ms\n")
	f.Add("start clients=2\npause c2 on=c9:release-sent for=10ms\n")
	f.Add("start\npattern drift=0.7\n")
	f.Add("start clients=1000 duration=24h\npause c* every=1us for=2562047h\npause c* every=10us for=1us\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseString(text)
		if err != nil {
			return
		}
		for _, nodes := range []int{1, 3, 5, maxNodes} {
			r, err := s.Resolve(nodes)
			if err != nil {
				continue
			}
			var total int64
			for _, f := range r.Faults {
				n := r.Occurrences(f, r.Nodes)
				total += n
				if f.IsSchedule() && f.Sched.EveryDist == fault.Fixed && n > 0 {
					if got := countFixed(f, r.Duration); got > n/int64(len(f.Targets(r.Nodes, r.Clients))) {
						t.Fatalf("%s: %d occurrences per target, more than Occurrences counts (%d in all)", FormatFault(f), got, n)
					}
				}
			}
			if total > MaxFaults {
				t.Fatalf("Resolve(%d) accepted %d fault occurrences, over %d:\n%s", nodes, total, MaxFaults, text)
			}
		}
	})
}

// TestLimitsDocumented: the package doc and the README give the limits
// the code holds a file and a run to.
func TestLimitsDocumented(t *testing.T) {
	for _, file := range []string{"doc.go", "../../README.md", "../../cli/main.go"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(strings.Fields(string(data)), " "), thousands(MaxFaults)+" fault occurrences") {
			t.Errorf("%s does not give the limit of %s fault occurrences", file, thousands(MaxFaults))
		}
	}
}

// TestTooManyFaultLinesRefusedAsRead: the fault line past the limit is
// refused when it is read, before the rest of the file is kept.
func TestTooManyFaultLinesRefusedAsRead(t *testing.T) {
	text := "start clients=2\n" + strings.Repeat("pause c1 at=1s for=1ms\n", MaxFaults+5)
	_, err := ParseString(text)
	if want := "line 100002: pause: fault line 100,001, over the limit of 100,000 fault occurrences in a run"; err == nil || err.Error() != want {
		t.Errorf("Parse = %v, want %q", err, want)
	}
}

// TestOccurrencesOfAHugeForDoNotOverflow: a for= near the largest
// duration counts one occurrence per target, not a negative number that
// would hide another line's.
func TestOccurrencesOfAHugeForDoNotOverflow(t *testing.T) {
	s, err := ParseString("start clients=2 duration=24h\npause c* every=1us for=2562047h\n")
	if err != nil {
		t.Fatal(err)
	}
	if n := s.Occurrences(s.Faults[0], 1); n != 2 { // 2 targets × one
		t.Errorf("Occurrences = %d, want 2", n)
	}
	_, err = ParseString("start clients=1000 duration=24h\npause c* every=1us for=2562047h\npause c* every=10us for=1us\n")
	if err == nil || !strings.Contains(err.Error(), "line 3: pause: field every: 7,854,545,455,000 fault occurrences") {
		t.Errorf("Parse = %v, want line 3 refused", err)
	}
}
