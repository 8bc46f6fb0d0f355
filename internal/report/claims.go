package report

import (
	"strings"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
)

// Claims are never pooled. A pattern's claims fall in three kinds that
// answer different questions: safety (mutex, safe-store, fencing,
// max-holders: did two clients rely on the lock at once, was an update
// lost, did a token repeat), liveness (progress: did the lock come back
// into use) and promptness (loss-signal: did a holder learn in time that
// it had lost the lock). A fenced lock under a drifting clock may break
// promptness in every seed and safety in none; counted together it would
// read as unsafe exactly where it is the answer. So every cell counts each
// kind apart (Cell.Kind), and every table, curve and grid colours a cell
// from one kind.

// ClaimKind is one kind of claim.
type ClaimKind int

// The kinds, in the order the report shows them.
const (
	Safety     ClaimKind = iota // mutex, safe-store, fencing, max-holders
	Liveness                    // progress
	Promptness                  // loss-signal
	numKinds
)

// Kinds are the kinds in order.
var Kinds = []ClaimKind{Safety, Liveness, Promptness}

// String names the kind as the report does.
func (k ClaimKind) String() string {
	switch k {
	case Safety:
		return "safety"
	case Liveness:
		return "liveness"
	}
	return "promptness"
}

// ClaimsText lists the claims of the kind.
func (k ClaimKind) ClaimsText() string {
	switch k {
	case Safety:
		return "mutex, safe-store, fencing, max-holders"
	case Liveness:
		return "progress"
	}
	return "loss-signal"
}

// KindOf is the kind of a claim as results name it ("mutex",
// "loss-signal", ...): progress is liveness, loss-signal promptness, every
// other claim safety.
func KindOf(claim string) ClaimKind { return KindNamed(sim.ClaimKind(claim)) }

// KindNamed is the kind sim.ClaimKind names.
func KindNamed(name string) ClaimKind {
	switch name {
	case sim.KindLiveness:
		return Liveness
	case sim.KindPromptness:
		return Promptness
	}
	return Safety
}

// Makes reports whether claims include one of kind k.
func Makes(c pattern.Claims, k ClaimKind) bool {
	for _, n := range c.Names() {
		if KindOf(n) == k {
			return true
		}
	}
	return false
}

// KindTally counts one kind of claim over a cell's seeds.
type KindTally struct {
	// Violating counts the seeds whose run broke a claim of the kind;
	// FirstSeed is the lowest of them (0 if none) and Violated the claims
	// of the kind broken in any run.
	Violating int
	FirstSeed uint64
	Violated  []string
	// Violations counts the oracle findings of the kind's claims the
	// pattern makes, summed over the seeds; Unclaimed those of the kind's
	// claims it does not make.
	Violations, Unclaimed int

	first *history.History // the history of FirstSeed, if kept
	late  []sim.Violation  // FirstSeed's late-signal findings
}

// Kind is the cell's tally of kind k.
func (c *Cell) Kind(k ClaimKind) *KindTally { return &c.Kinds[k] }

// addKinds folds one run into the kinds' tallies.
func (c *Cell) addKinds(r *sim.Result) {
	var broke [numKinds][]string
	for _, v := range r.Violated {
		k := KindOf(v)
		broke[k] = append(broke[k], v)
	}
	for _, f := range r.ClaimFindings() {
		t := &c.Kinds[KindOf(f.Claim)]
		if f.Claimed {
			t.Violations += f.Count
		} else {
			t.Unclaimed += f.Count
		}
	}
	for k, names := range broke {
		if len(names) == 0 {
			continue
		}
		t := &c.Kinds[k]
		t.Violating++
		t.Violated = append(t.Violated, names...)
		if t.FirstSeed == 0 || r.Seed < t.FirstSeed {
			t.FirstSeed, t.first, t.late = r.Seed, r.History, lateFindings(r)
		}
	}
}

func lateFindings(r *sim.Result) []sim.Violation {
	var out []sim.Violation
	for _, v := range r.Violations {
		if v.Kind == "late-signal" {
			out = append(out, v)
		}
	}
	return out
}

// runKinds are the kinds of claim a run broke.
func runKinds(r *sim.Result) []ClaimKind {
	var out []ClaimKind
	for _, k := range Kinds {
		for _, v := range r.Violated {
			if KindOf(v) == k {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

// Drawn is the kind the cell's counterexample page shows: safety when a
// safety claim broke, else promptness, else liveness; ok is false when no
// claim broke.
func (c *Cell) Drawn() (ClaimKind, bool) {
	for _, k := range []ClaimKind{Safety, Promptness, Liveness} {
		if c.Kinds[k].Violating > 0 {
			return k, true
		}
	}
	return Safety, false
}

// kindsBroken lists, kind by kind, the claims broken in the cell:
// "safety: mutex; promptness: loss-signal".
func kindsBroken(c *Cell) string {
	var out []string
	for _, k := range Kinds {
		if t := c.Kinds[k]; len(t.Violated) > 0 {
			out = append(out, k.String()+": "+strings.Join(t.Violated, ", "))
		}
	}
	return strings.Join(out, "; ")
}
