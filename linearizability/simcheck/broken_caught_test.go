package simcheck

import (
	"flag"
	"testing"
	"time"

	"github.com/locksim/locksim/linearizability"
	"github.com/locksim/locksim/model"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

var find = flag.Int("simcheck.find", 0, "TestFindCatchingSeeds: search seeds 1..N for runs that separate each broken variant from its correct pattern")

// caught names, for every broken variant of the catalog, a run in which the
// checker finds the variant's history Illegal for Model (the lock model
// only in runs without faults: quiet, reenter). Where a built-in
// scenario separates the variant from the correct pattern it imitates,
// Correct names that pattern, and the same scenario and seed must be Ok for
// the same model: the checker then tells the two apart. Where none does,
// Correct is empty and Why says so. TestFindCatchingSeeds (-simcheck.find N)
// finds new runs when the simulator changes.
var caught = []struct {
	Broken, Scenario string
	Seed             uint64
	Model            string // model.NameCounter or model.NameLock
	Correct          string
	Why              string
}{
	{"basic-del", "wrong-owner-release", 1, "counter", "basic",
		"c1's DEL after its lease expired frees c2's lock; a third client takes it and both write"},
	{"watchdog-renew-ttl", "slow-work", 1, "counter", "watchdog",
		"renewing only every TTL, the lock lapses while c1 still works"},
	{"service-seconds", "client-clock-drift", 1, "counter", "service",
		"the sub-second TTL becomes an expiry of 0: every acquisition is deleted at once"},
	{"service-seconds", "no-faults", 1, "lock", "service",
		"even without faults, the lock is granted to a second owner while the first holds it"},
	{"fenced-volatile", "client-clock-drift", 1, "counter", "fenced",
		"the fence counter expired with the lock, tokens restart, and the store accepts a stale holder's write"},
	{"rwlock-shared-count", "wrong-owner-release", 13, "counter", "rwlock",
		"a reader's release decrements the shared count of another reader, letting a writer in beside it (client-clock-jump seed 2 separated them until waiters polled at a holding's expiry: with the new timing the counter model finds rwlock's own run illegal there: 4 lost updates, no overlap, no claim broken, the shared-holders class of readers writing under read leases)"},
	{"redlock-fenced-pernode", "failover-async-replication", 2, "counter", "",
		"the replica that took over missed the lock and its counter: the next token (the largest of the quorum's per-node counters) is not above the stale holder's, the store accepts the stale write and the SafeStore claim fails; redlock, which claims no SafeStore, loses the same update here"},
	{"redlock-novalidity", "gc-pause", 1, "counter", "",
		"with seeds 1-10 no built-in scenario separates it from redlock: the grants arrive within validity; the pause breaks both"},
	{"reentrant-nocount", "reenter", 1, "counter", "reentrant",
		"the inner release frees the lock while the outer section still runs; another client takes it and both write"},
	{"reentrant-nocount", "reenter", 1, "lock", "reentrant",
		"without faults nothing expires: the lock is granted to a second owner while the first holds it"},
	{"basic-shared-token", "wrong-owner-release", 1, "counter", "basic",
		"every client's owner token is the same: c1's owner-checked release after its lease expired matches c2's key and frees it; a third client takes it and both write"},
	{"redlock-shared-token", "wrong-owner-release", 1, "counter", "redlock",
		"with one token for every client, c1's release after its lease expired matches the next holder's keys and frees them; a third client takes the lock and both write (without faults seeds 1-20 no longer show it: a failed attempt gives its token back only where it was not refused, so it no longer frees the holder's keys)"},
	{"watchdog-zombie-renewal", "gc-pause", 1, "counter", "",
		"its pitfall (a renewal that outlives the release keeps the lock held for no one) costs progress, which is not a linearizability property (the progress claim catches it); the pause breaks it as it breaks watchdog"},
	{"watchdog-late-done", "gc-pause", 1, "counter", "",
		"its pitfall (a holder that learns of its loss late) costs the loss signal, which is not a linearizability property (the loss-signal claim catches it); the pause breaks it as it breaks watchdog"},
	{"fair-clock-queue", "gc-pause", 1, "counter", "",
		"its pitfalls (queue order by client clocks, abandoned waiters) cost fairness and liveness, which are not linearizability properties; the pause breaks it as it breaks fair"},
}

// reenter is the one scenario here that is not built in: no built-in
// re-enters the lock, and only re-entry shows reentrant-nocount's pitfall.
// Each section takes the lock again, nested, and releases the inner
// holding before its lease check and write (as internal/gate's reenter).
var reenter = scenario.Builtin{Name: "reenter", Summary: "each section re-enters the lock and releases the inner holding before its write",
	Make: func(nodes int) scenario.Scenario {
		s := scenario.Default()
		s.Nodes, s.Clients, s.TTL, s.Duration = nodes, 3, 500*time.Millisecond, 2*time.Second
		w := &s.Workload
		w.Work, w.Jitter, w.Think, w.Prep, w.Retry, w.Reenter = 20*time.Millisecond, 5*time.Millisecond, 5*time.Millisecond, 30*time.Millisecond, 5*time.Millisecond, true
		return s
	}}

// scenarioFor returns the built-in named name, quiet or reenter.
func scenarioFor(t *testing.T, name string) scenario.Builtin {
	t.Helper()
	switch name {
	case quiet.Name:
		return quiet
	case reenter.Name:
		return reenter
	}
	for _, b := range scenario.Builtins() {
		if b.Name == name {
			return b
		}
	}
	t.Fatalf("no built-in scenario %q", name)
	return scenario.Builtin{}
}

func lookup(t *testing.T, name string) pattern.Pattern {
	t.Helper()
	p, err := pattern.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func verdictFor(o outcome, modelName string) linearizability.Verdict {
	if modelName == model.NameLock {
		return o.Lock
	}
	return o.Counter
}

// TestBrokenVariantsCaught runs the named runs: each broken variant's is
// Illegal; the correct pattern's, where named, is Ok for the same model.
func TestBrokenVariantsCaught(t *testing.T) {
	named := map[string]bool{}
	for _, c := range caught {
		named[c.Broken] = true
		t.Run(c.Broken+"/"+c.Scenario, func(t *testing.T) {
			b := scenarioFor(t, c.Scenario)
			jobs := []job{{lookup(t, c.Broken), b, c.Seed}}
			if c.Correct != "" {
				jobs = append(jobs, job{lookup(t, c.Correct), b, c.Seed})
			}
			rows := runAll(t, jobs)
			if v := verdictFor(rows[0], c.Model); v != linearizability.Illegal {
				t.Errorf("%s model on %v: %s, want illegal (%s)\n\tfind another run: go test ./linearizability/simcheck -run TestFindCatchingSeeds -simcheck.find 20 -v", c.Model, rows[0], v, c.Why)
			}
			if c.Correct != "" {
				if v := verdictFor(rows[1], c.Model); v != linearizability.Ok {
					t.Errorf("%s model on %v: %s, want ok: the run no longer separates %s from %s", c.Model, rows[1], v, c.Broken, c.Correct)
				}
			}
		})
	}
	for _, p := range pattern.All() {
		if p.Broken && !named[p.Name] {
			t.Errorf("broken variant %s has no named run that the checker finds Illegal", p.Name)
		}
	}
}

// correctOf maps each broken variant to the correct pattern it imitates.
var correctOf = map[string]string{
	"basic-del": "basic", "reentrant-nocount": "reentrant", "watchdog-renew-ttl": "watchdog",
	"service-seconds": "service", "fenced-volatile": "fenced", "redlock-novalidity": "redlock",
	"redlock-fenced-pernode": "redlock", "fair-clock-queue": "fair", "rwlock-shared-count": "rwlock",
	"basic-shared-token": "basic", "redlock-shared-token": "redlock", "watchdog-zombie-renewal": "watchdog",
	"watchdog-late-done": "watchdog",
}

// TestFindCatchingSeeds searches seeds 1..N of every built-in scenario
// (steady replaced by quiet) for runs in which a broken variant's counter
// or lock model is Illegal while its correct pattern's is Ok, and logs
// them: candidates for the caught table.
func TestFindCatchingSeeds(t *testing.T) {
	if *find == 0 {
		t.Skip("searches only with -simcheck.find N")
	}
	for _, p := range pattern.All() {
		if !p.Broken {
			continue
		}
		of, ok := correctOf[p.Name]
		if !ok {
			t.Fatalf("broken variant %s has no correct pattern in correctOf", p.Name)
		}
		correct := lookup(t, of)
		for _, b := range scenario.Builtins() {
			if b.Name == "steady" {
				b = quiet
			}
			var jobs []job
			for s := 1; s <= *find; s++ {
				jobs = append(jobs, job{p, b, uint64(s)}, job{correct, b, uint64(s)})
			}
			rows := runAll(t, jobs)
			for i := 0; i < len(rows); i += 2 {
				for _, m := range []string{model.NameCounter, model.NameLock} {
					if verdictFor(rows[i], m) == linearizability.Illegal && verdictFor(rows[i+1], m) == linearizability.Ok {
						t.Logf("%s: %s illegal, %s ok (%s under %s, seed %d)", m, p.Name, correct.Name, p.Name, b.Name, rows[i].Seed)
					}
				}
			}
		}
	}
}
