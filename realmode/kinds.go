package realmode

import (
	"fmt"
	"strings"

	"github.com/locksim/locksim/sim"
)

// Kinds are the kinds of claim (sim.ClaimKind) in the order the agreement
// table shows them: a cell agrees kind by kind, never over a pool of
// claims of different kinds.
var Kinds = []string{sim.KindSafety, sim.KindLiveness, sim.KindPromptness}

// KindState is one kind's verdict in a cell.
type KindState string

const (
	KindAgree     KindState = "agree"      // both sides broke it, or neither did
	KindDisagree  KindState = "disagree"   // one side broke it, the other did not
	KindNotJudged KindState = "not judged" // real mode judged it in no run, and no run broke it
)

// KindAgreement is a cell's verdict on one kind of claim its subject makes.
type KindAgreement struct {
	Kind      string
	Sim, Real int // runs that broke a claim of the kind
	State     KindState
}

// ByKind is the cell's verdict per kind of claim its subject makes, in
// Kinds order; false for a cell whose tallies were made before runs were
// counted by kind (its rates are then of any claim). A library cell, with
// no simulator side, has its real counts and no State.
func (c Cell) ByKind() ([]KindAgreement, bool) {
	library := c.Sim.Runs == 0
	var out []KindAgreement
	for _, k := range Kinds {
		if !c.makes(k) {
			continue
		}
		s, okS := c.Sim.Kind(k)
		r, okR := c.Real.Kind(k)
		if !okS || !okR {
			return nil, false
		}
		a := KindAgreement{Kind: k, Sim: s, Real: r, State: KindAgree}
		switch {
		case library:
			a.State = ""
		case k == sim.KindPromptness && r == 0 && c.Real.NotJudged > 0 && c.Real.NotJudged >= c.Real.Runs-c.Real.Failed:
			// Result.NotJudged names the loss-signal claim alone.
			a.State = KindNotJudged
		case (s == 0) != (r == 0):
			a.State = KindDisagree
		}
		out = append(out, a)
	}
	return out, true
}

// makes reports whether the cell's subject makes a claim of kind k (true
// when the cell does not say which claims it makes).
func (c Cell) makes(k string) bool {
	names := c.ClaimSet.Names()
	if len(names) == 0 && c.Claims != "" {
		names = strings.Split(c.Claims, ",")
	}
	if len(names) == 0 {
		return true
	}
	for _, n := range names {
		if sim.ClaimKind(n) == k {
			return true
		}
	}
	return false
}

// Disagreeing names the kinds on which the cell's two sides disagree.
func (c Cell) Disagreeing() []string {
	var out []string
	if ks, ok := c.ByKind(); ok {
		for _, k := range ks {
			if k.State == KindDisagree {
				out = append(out, k.Kind)
			}
		}
	} else if !c.Agree() {
		out = append(out, "any claim")
	}
	return out
}

// kindText is a kind's column in the table: "sim · real", its runs
// broken of the runs on each side.
func kindText(c Cell, k KindAgreement) string {
	s := fmt.Sprintf("%d/%d · %d/%d", k.Sim, c.Sim.Runs, k.Real, c.Real.Runs-c.Real.Failed)
	if k.State == KindNotJudged {
		s += " (not judged)"
	}
	return s
}
