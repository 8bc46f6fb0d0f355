package sim

import (
	"testing"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/sim/oracle"
)

// spy is an oracle that counts the events it is given.
type spy struct {
	n      map[oracle.Kind]int
	leases []int // the Granted events' holding numbers, in order
	ended  int
}

func (s *spy) Observe(e oracle.Event) {
	s.n[e.Kind]++
	if e.Kind == oracle.Granted {
		s.leases = append(s.leases, e.Lease)
	}
}

func (s *spy) End(int64) { s.ended++ }

// TestEveryEventReachesAnOracleOnce: an oracle added to a run's list is
// given each client call once — one event per history op the call
// recorded — the holdings numbered in grant order, each scheduler event
// once, and the run's end once.
func TestEveryEventReachesAnOracleOnce(t *testing.T) {
	for _, tc := range []struct{ pattern, scenario string }{
		{"basic", "gc-pause"},
		{"redlock", "partition"},
		{"fenced", "node-restart-without-persistence"},
		{"rwlock", "steady"},
	} {
		t.Run(tc.pattern+"/"+tc.scenario, func(t *testing.T) {
			p := lookupPattern(t, tc.pattern)
			w, err := prepare(Config{Pattern: p, Scenario: builtin(t, tc.scenario, p), Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer w.close()
			s := &spy{n: map[oracle.Kind]int{}}
			w.oracles = append(w.oracles, s)
			res, err := w.run()
			if err != nil {
				t.Fatal(err)
			}
			ops := map[string]int{}
			granted := 0
			for _, op := range res.History.Ops {
				ops[op.Kind]++
				if op.Kind == history.Acquire && op.OK {
					granted++
				}
			}
			for _, c := range []struct {
				kind oracle.Kind
				want int
				what string
			}{
				{oracle.Granted, granted, "granted acquisitions in the history"},
				{oracle.Granted, res.Liveness.Acquisitions, "acquisitions"},
				{oracle.Refused, ops[history.Acquire] - granted, "refused acquisitions in the history"},
				{oracle.Released, ops[history.Release], "releases in the history"},
				{oracle.Read, ops[history.Read], "reads in the history"},
				{oracle.Wrote, ops[history.Write], "writes in the history"},
				{oracle.Ticked, int(res.Stats.Events), "scheduler events"},
			} {
				if s.n[c.kind] != c.want {
					t.Errorf("%v events: %d, want %d (%s)", c.kind, s.n[c.kind], c.want, c.what)
				}
			}
			for i, id := range s.leases {
				if id != i {
					t.Fatalf("holding %d granted as number %d", i, id)
				}
			}
			if s.ended != 1 || res.Liveness.Acquisitions == 0 {
				t.Errorf("ended %d times after %d acquisitions, want once after some", s.ended, res.Liveness.Acquisitions)
			}
		})
	}
}
