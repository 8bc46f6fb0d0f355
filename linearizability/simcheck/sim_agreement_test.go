package simcheck

// The agreement of the checker with the simulator's oracles.
//
// Every row runs one pattern under one built-in scenario with one seed,
// then checks the run's history with package linearizability: the counter
// model (sections), the register model (reads and writes) and, in runs
// without faults (steady), where no lease expires, the lock model
// (acquire, release, extend). The oracles are the simulator's: overlaps
// (two clients relying on the lock at one instant of true time), lost
// updates at the store, fence violations, and the claims each pattern
// makes (sim.Result.Violated).
//
// Where they must agree (a row that breaks one of these fails the test):
//
//   - No lost update ⇒ the counter model is Ok. The store's own order of
//     reads and writes is then a linearization.
//   - A lost update, with every section's outcome known ⇒ the counter
//     model is Illegal. An accepted write that lands on a value other than
//     the one its section read means two accepted sections read the same
//     value, which no order of increments allows.
//   - A lost update ⇒ an overlap, for patterns that allow one holder: two
//     writers interleaved, so two clients relied on the lock at one instant
//     (the oracles agree with each other).
//   - The register model agrees with the store's own rule written apart
//     (seenRegisterModel); it is Illegal only with an overlap or a fence
//     violation.
//   - Lock model, exclusive patterns, no faults: Illegal exactly when the
//     mutual-exclusion oracle found an overlap.
//   - The counter model is Illegal with no claim violated only for
//     patterns whose claims allow several holders.
//   - No check is Unknown (out of time): Unknown is never a pass.
//
// Legitimate disagreements, each a class of rows counted in the summary:
//
//   - overlap-no-loss: the mutual-exclusion oracle sees two holders, the
//     counter model is Ok. The stale holder did not write over the other:
//     it saw its lease lost and abandoned the write, a fencing store
//     rejected its stale token, or the two sections never interleaved a
//     read and a write. The Mutex claim is violated, the protected counter
//     is intact: the checker judges the data, the oracle the lock.
//   - unknown-hides-loss: a lost update the counter model does not see
//     because a section involved has an unknown outcome (its write's reply
//     was lost, or the run ended); the model assumes such a section atomic.
//   - shared-holders: read-write locks and semaphores let several clients
//     hold at once (readers, permits; report.SharedHolders) and the
//     simulated workload writes under every lease, so updates are lost and
//     the counter and lock models are Illegal while the oracles, which let
//     readers overlap each other and count a semaphore's holders, find no
//     broken claim.
//   - abandoned-grant (lock model): an Acquire cut by its deadline while
//     its last request was in flight reports "not acquired" (the error
//     wraps both locks.ErrNotAcquired and the deadline), and the simulator
//     records a refusal (with no owner); but the server may have granted
//     that request, and here did. The lock model, which takes the refusal as
//     fact, is Illegal; with such an acquire given an unknown outcome and the
//     owner of the client's next grant (cutUnknown), it is Ok. With a
//     reentrant owner the grant is a leaked hold level: the owner's next
//     Acquire re-enters (count 2), its Release leaves count 1, and it keeps
//     the lock from everyone else while it goes on re-entering.
//   - fence-only: a repeated or decreasing fencing token (a fence counter
//     lost on restart, per-node counters) with no lost update: legal for
//     the register (tokens must not decrease among accepted writes), seen
//     only by the fence-monotonicity oracle.
//
// Liveness (stuck clients, acquisition rate) is not a linearizability
// property and is not compared.

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/linearizability"
	"github.com/locksim/locksim/model"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

var (
	sweep      = flag.Bool("simcheck.sweep", false, "run every pattern × built-in scenario, steady included, for seeds 1..simcheck.seeds")
	sweepSeeds = flag.Int("simcheck.seeds", 5, "seeds per pattern × scenario in the sweep")
	showTable  = flag.Bool("simcheck.table", false, "log every row of the agreement table")
)

// checkTimeout bounds each check. The histories are small (a few thousand
// ops at most); a check that runs out is Unknown, and fails the row.
const checkTimeout = time.Minute

// workers run rows at once: a simulation spends most of its real time in
// goroutine hand-offs, so a few per core keep the cores busy.
var workers = 4 * runtime.GOMAXPROCS(0)

// quiet is the default test's run without faults, for the lock model:
// the base of every built-in scenario (2 clients, 1 simulated second).
// steady (5 clients, 30 simulated seconds) is too slow for the default
// test under -race; the sweep runs it.
var quiet = scenario.Builtin{Name: "no-faults", Summary: "the built-ins' base: 2 clients, 1s, no faults",
	Make: func(nodes int) scenario.Scenario {
		s := scenario.Default()
		s.Nodes = nodes
		return s
	}}

// The classes of rows.
const (
	classClean   = "clean"              // no overlap, no loss, no fence violation; every model Ok
	classLost    = "lost-update"        // lost update ⇒ counter Illegal (agreement)
	classGrant   = "double-grant"       // overlap without faults ⇒ lock Illegal (agreement)
	classNoLoss  = "overlap-no-loss"    // disagreement: see the file comment
	classUnknown = "unknown-hides-loss" // disagreement
	classShared  = "shared-holders"     // disagreement
	classFence   = "fence-only"         // disagreement
	classCut     = "abandoned-grant"    // disagreement
)

// outcome is one row: what the oracles measured, what the checker said.
type outcome struct {
	Pattern  string
	Scenario string
	Seed     uint64
	Shared   bool // several clients may hold at once by design

	Violated        []string
	Overlaps        int
	LostUpdates     int
	FenceViolations int
	UnknownSections int // sections whose write has an unknown outcome

	Counter  linearizability.Verdict
	Register linearizability.Verdict
	Lock     linearizability.Verdict // "" where the lock model does not apply
	// SeenRegister is the verdict under the store's own rule, written
	// apart from the register model (seenRegisterModel): the two agree.
	SeenRegister linearizability.Verdict
	// LockCut is the lock model's verdict with the acquires cut by their
	// deadline given an unknown outcome, checked only when Lock is Illegal.
	LockCut linearizability.Verdict
}

func (o outcome) String() string {
	lock := string(o.Lock)
	if lock == "" {
		lock = "-"
	}
	return fmt.Sprintf("%-22s %-32s seed %-2d | oracle %-28s overlaps %-3d lost %-3d fence %-2d unknown %-2d | counter %-7s register %-7s lock %-7s",
		o.Pattern, o.Scenario, o.Seed, fmt.Sprint(o.Violated), o.Overlaps, o.LostUpdates, o.FenceViolations, o.UnknownSections,
		o.Counter, o.Register, lock)
}

type job struct {
	p    pattern.Pattern
	b    scenario.Builtin
	seed uint64
}

// plan lists the rows: by default seed 1 of every pattern under every
// built-in scenario, steady replaced by quiet; the sweep runs seeds
// 1..simcheck.seeds of every built-in.
func plan() []job {
	seeds := []uint64{1}
	if *sweep {
		seeds = nil
		for s := 1; s <= *sweepSeeds; s++ {
			seeds = append(seeds, uint64(s))
		}
	}
	var out []job
	for _, p := range pattern.All() {
		for _, b := range scenario.Builtins() {
			if b.Name == "steady" && !*sweep {
				b = quiet
			}
			for _, s := range seeds {
				out = append(out, job{p, b, s})
			}
		}
	}
	return out
}

// observe runs one row and checks its history.
func observe(j job) (outcome, error) {
	sc, err := j.b.Scenario(j.p.Nodes)
	if err != nil {
		return outcome{}, err
	}
	res, err := sim.Run(sim.Config{Pattern: j.p, Scenario: sc, Seed: j.seed})
	if err != nil {
		return outcome{}, err
	}
	o := outcome{Pattern: j.p.Name, Scenario: j.b.Name, Seed: j.seed, Shared: report.SharedHolders(j.p),
		Violated: res.Violated, Overlaps: res.Safety.Overlaps, LostUpdates: res.Safety.LostUpdates,
		FenceViolations: res.Safety.FenceViolations, UnknownSections: unknownSections(res.History)}
	rep, err := linearizability.Check(res.History, linearizability.Options{Timeout: checkTimeout})
	if err != nil {
		return o, err
	}
	o.Counter, o.Register = modelVerdict(rep, model.NameCounter), modelVerdict(rep, model.NameRegister)
	o.SeenRegister = checkSeenRegister(res.History, checkTimeout)
	if len(sc.Faults) == 0 {
		if o.Lock, err = lockVerdict(res.History); err != nil {
			return o, err
		}
		if o.Lock == linearizability.Illegal {
			o.LockCut, err = lockVerdict(cutUnknown(res.History))
		}
	}
	return o, err
}

func lockVerdict(h *history.History) (linearizability.Verdict, error) {
	rep, err := linearizability.Check(h, linearizability.Options{Timeout: checkTimeout, Models: linearizability.Lock})
	return rep.Verdict, err
}

// cutUnknown gives an unknown outcome to each refused acquire whose
// deadline cut an attempt in flight ("gave up: acquire ...: context
// deadline exceeded"; a deadline met while sleeping between attempts reads
// "gave up: context deadline exceeded") and whose client's next grant
// re-entered (Count > 1): that request was granted to the owner the next
// grant names. The simulator records no owner for a refused acquire.
func cutUnknown(h *history.History) *history.History {
	out := *h
	out.Ops = slices.Clone(h.Ops)
	for i, op := range out.Ops {
		if op.Kind != history.Acquire || op.OK || !strings.Contains(op.Err, "gave up: acquire") || !strings.Contains(op.Err, context.DeadlineExceeded.Error()) {
			continue
		}
		if next, ok := nextGrant(out.Ops[i+1:], op.Client); ok && next.Count > 1 {
			out.Ops[i].Return, out.Ops[i].Token = history.Unknown, next.Token
		}
	}
	return &out
}

// nextGrant is client's first successful acquire in ops.
func nextGrant(ops []history.Op, client int) (history.Op, bool) {
	for _, op := range ops {
		if op.Kind == history.Acquire && op.Client == client && op.OK {
			return op, true
		}
	}
	return history.Op{}, false
}

func unknownSections(h *history.History) int {
	n := 0
	for _, op := range h.Ops {
		if op.Kind == history.Section && op.Unknown() {
			n++
		}
	}
	return n
}

// modelVerdict is the worst verdict of the partitions of one model (Ok
// when the history has none).
func modelVerdict(rep linearizability.Report, name string) linearizability.Verdict {
	rank := map[linearizability.Verdict]int{linearizability.Ok: 0, linearizability.Unknown: 1, linearizability.Illegal: 2}
	v := linearizability.Ok
	for _, p := range rep.Parts {
		if p.Model == name && rank[p.Verdict] > rank[v] {
			v = p.Verdict
		}
	}
	return v
}

// runAll runs the jobs on the workers and returns the outcomes in plan
// order.
func runAll(t *testing.T, jobs []job) []outcome {
	t.Helper()
	out := make([]outcome, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				out[i], errs[i] = observe(jobs[i])
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s under %s, seed %d: %v", jobs[i].p.Name, jobs[i].b.Name, jobs[i].seed, err)
		}
	}
	return out
}

// classify names the classes of a row and lists the rules it breaks.
func classify(o outcome) (classes, problems []string) {
	must := func(ok bool, format string, a ...any) {
		if !ok {
			problems = append(problems, fmt.Sprintf(format, a...))
		}
	}
	for _, v := range []linearizability.Verdict{o.Counter, o.Register, o.Lock, o.SeenRegister, o.LockCut} {
		must(v != linearizability.Unknown, "a check ran out of time (Unknown is not a pass)")
	}
	must(o.LostUpdates == 0 || o.Overlaps > 0 || o.Shared, "%d lost update(s) without an overlap: the mutual-exclusion oracle missed a holder", o.LostUpdates)
	switch {
	case o.LostUpdates == 0:
		must(o.Counter == linearizability.Ok, "no lost update, yet the counter model is %s", o.Counter)
	case o.Counter == linearizability.Illegal:
		classes = append(classes, classLost)
	case o.UnknownSections > 0:
		classes = append(classes, classUnknown)
	default:
		problems = append(problems, fmt.Sprintf("%d lost update(s), every section known, yet the counter model is %s", o.LostUpdates, o.Counter))
	}
	if o.Overlaps > 0 && o.LostUpdates == 0 {
		classes = append(classes, classNoLoss)
	}
	if o.Register == linearizability.Illegal {
		must(o.Overlaps > 0 || o.FenceViolations > 0, "register model Illegal with no overlap and no fence violation")
	}
	must(o.Register == o.SeenRegister, "register model %s, the store's own rule %s: the model is not the store's rule", o.Register, o.SeenRegister)
	classes, problems = classifyLock(o, classes, problems)
	if o.FenceViolations > 0 && o.LostUpdates == 0 {
		classes = append(classes, classFence)
	}
	if len(o.Violated) == 0 && o.Counter == linearizability.Illegal {
		must(o.Shared, "counter model Illegal, yet no claim of %s is violated", o.Pattern)
		classes = append(classes, classShared)
	}
	if len(classes) == 0 && len(problems) == 0 {
		classes = append(classes, classClean)
	}
	return dedup(classes), problems
}

// classifyLock applies the lock model's rule to rows where it ran.
func classifyLock(o outcome, classes, problems []string) ([]string, []string) {
	switch {
	case o.Lock == "":
	case o.Shared && o.Lock == linearizability.Illegal:
		classes = append(classes, classShared)
	case o.Shared:
	case o.Lock == linearizability.Illegal && o.Overlaps == 0 && o.LockCut == linearizability.Ok:
		classes = append(classes, classCut)
	case (o.Lock == linearizability.Illegal) != (o.Overlaps > 0):
		problems = append(problems, fmt.Sprintf("lock model %s with %d overlap(s) in a run without faults", o.Lock, o.Overlaps))
	case o.Lock == linearizability.Illegal:
		classes = append(classes, classGrant)
	}
	return classes, problems
}

func dedup(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// TestAgreement runs the agreement table and holds every row to the rules
// in the file comment; the summary counts the rows of each class.
func TestAgreement(t *testing.T) {
	jobs := plan()
	start := time.Now()
	rows := runAll(t, jobs)
	count := map[string]int{}
	first := map[string]outcome{}
	for _, o := range rows {
		classes, problems := classify(o)
		for _, c := range classes {
			if _, seen := first[c]; !seen {
				first[c] = o
			}
			count[c]++
		}
		if len(problems) > 0 {
			t.Errorf("%v\n\t%s", o, strings.Join(problems, "\n\t"))
		}
		if *showTable {
			t.Logf("%v | %s", o, strings.Join(classes, ","))
		}
	}
	var names []string
	for c := range count {
		names = append(names, c)
	}
	sort.Strings(names)
	t.Logf("%d rows in %v", len(rows), time.Since(start).Round(time.Millisecond))
	for _, c := range names {
		f := first[c]
		t.Logf("  %-18s %4d rows (first: %s under %s, seed %d)", c, count[c], f.Pattern, f.Scenario, f.Seed)
	}
	if count[classLost] == 0 || count[classClean] == 0 {
		t.Errorf("the table has %d lost-update rows and %d clean rows: both kinds must appear for the agreement to mean anything", count[classLost], count[classClean])
	}
}

// TestPlanCovers checks that the table has a row for every pattern and
// every built-in scenario (steady by its stand-in quiet, by default).
func TestPlanCovers(t *testing.T) {
	patterns, scenarios := map[string]bool{}, map[string]bool{}
	for _, j := range plan() {
		patterns[j.p.Name], scenarios[j.b.Name] = true, true
	}
	if !*sweep {
		scenarios["steady"] = scenarios[quiet.Name]
	}
	for _, p := range pattern.All() {
		if !patterns[p.Name] {
			t.Errorf("pattern %s has no row", p.Name)
		}
	}
	for _, b := range scenario.Builtins() {
		if !scenarios[b.Name] {
			t.Errorf("scenario %s has no row", b.Name)
		}
	}
}
