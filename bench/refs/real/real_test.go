package real

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks/lockstest/redistest"
	"github.com/locksim/locksim/realmode"
	"github.com/locksim/locksim/sim/scenario"
)

// The test binary is also the client process, with the libraries.
const clientEnv = "LOCKSIM_REFS_REAL_TEST_CLIENT=1"

func TestMain(m *testing.M) {
	if os.Getenv("LOCKSIM_REFS_REAL_TEST_CLIENT") == "1" {
		os.Exit(realmode.ClientMain(Subjects()...))
	}
	redis.SetLogger(quiet{}) // the probes of a server starting up
	os.Exit(m.Run())
}

type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

func run(t *testing.T, subject realmode.Subject, sc scenario.Scenario, seed uint64) *realmode.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := realmode.Run(ctx, realmode.Config{Pattern: subject.Pattern(), Scenario: sc, Seed: seed,
		Client: []string{os.Args[0]}, ClientEnv: []string{clientEnv}})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	return res
}

func need(t *testing.T) {
	t.Helper()
	if !redistest.Available() {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server not found on PATH, and CI=true requires the real-mode tests to run")
		}
		t.Skip("redis-server not installed")
	}
}

// maxRuns bounds the real runs per library under the pause.
const maxRuns = 8

// TestLibrariesRunAndBreakUnderPause: every adapter runs the workload on
// real servers (its clients acquire, write and release in at least one
// run), and a real SIGSTOP of the holder for 1.5 TTL between its check
// and its write makes each library lock admit a second holder in at least
// one of maxRuns runs (a run breaks when the second client takes the lock
// inside the pause; about half of them do): none of them fences. A run
// with no acquisition is not the adapter's failure on its own: on a loaded
// machine a library that measures its acquire against its own local
// deadline (redsync over five nodes) may refuse every attempt of a short
// run; the test waits for a run that works, up to maxRuns.
func TestLibrariesRunAndBreakUnderPause(t *testing.T) {
	need(t)
	for _, s := range Subjects() {
		t.Run(s.Name, func(t *testing.T) {
			gc, err := scenario.Lookup("gc-pause", s.Nodes)
			if err != nil {
				t.Fatal(err)
			}
			broke, worked := 0, 0
			for seed := uint64(1); seed <= maxRuns && (broke == 0 || worked == 0); seed++ {
				res := run(t, s, gc, seed)
				t.Log(res.Summary())
				if res.Liveness.Acquisitions >= 3 && res.Safety.Accepted >= 2 {
					worked++
				}
				if len(res.Violated) > 0 {
					broke++
				}
			}
			if worked == 0 {
				t.Fatalf("%s: no run of %d made 3 acquisitions and 2 accepted writes: the adapter does not work", s.Name, maxRuns)
			}
			if broke == 0 {
				t.Errorf("%s under a real pause past its TTL: no run of %d broke mutual exclusion", s.Name, maxRuns)
			}
		})
	}
}
