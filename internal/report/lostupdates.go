package report

import (
	"context"
	"strings"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// Lost updates, with and without fencing: a pattern that issues tokens is
// measured a second time with its tokens withheld from the store
// (withoutTokens), and the section shows both beside each other.

// withoutTokens returns p with its fencing tokens withheld: every lease
// comes back with Fence 0, so the simulated store (which checks a token
// only when a request carries one) accepts every write, and the oracles
// judge no token. The lock itself behaves exactly as p's, so the same seed
// measures the lost updates the run would have had without fencing.
func withoutTokens(p pattern.Pattern) pattern.Pattern {
	q := p
	q.New = func(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error) {
		l, err := p.New(nodes, key, o)
		if err != nil {
			return nil, err
		}
		return tokenless{l}, nil
	}
	return q
}

// tokenless drops the fencing token of every lease its Locker grants.
type tokenless struct{ locks.Locker }

func (t tokenless) Acquire(ctx context.Context) (*locks.Lease, error) {
	l, err := t.Locker.Acquire(ctx)
	if l != nil {
		l.Fence = 0
	}
	return l, err
}

// sharedNames names the correct patterns with shared holdings.
func (m *Measurements) sharedNames() []string {
	var out []string
	for _, p := range m.Patterns {
		if p.Shared && !p.Broken {
			out = append(out, p.Name)
		}
	}
	return out
}

// lostUpdates writes the section: per pattern and scenario the seeds with
// a lost update, as designed and, for token issuers, with tokens withheld.
func lostUpdates(d *Document, m *Measurements, opt Options) {
	d.heading(2, "lost-updates", "Lost updates, with and without fencing")
	d.para(text("Each cell is seeds with a lost update / seeds (the rate and its 95%% interval), then the total of lost updates. A lost update is a write accepted on a value other than the one its writer read: another client's increment is overwritten. "),
		text("Patterns that issue fencing tokens ran every seed twice: as designed (the store rejects a write whose token is below the highest it has seen) and with the tokens withheld from the store, which is what the same lock protects without a checking store. "),
		text("A pattern without tokens has only the second kind."))
	if shared := m.sharedNames(); len(shared) > 0 {
		d.para(text("%s let several clients hold at once by design (readers, permits), and every holder in this workload writes the counter, so their rows lose updates without breaking a claim: judge them by their claims in the safety table (no writer beside another holder; at most N holders), not here.",
			strings.Join(shared, " and ")))
	}
	t := Table{Header: m.scenarioHeader("pattern", "store")}
	for _, i := range m.patternRows(false) {
		p := m.Patterns[i]
		if p.Tokens {
			t.Rows = append(t.Rows, lossRow(m, i, "checks tokens", false), lossRow(m, i, "tokens withheld", true))
			continue
		}
		t.Rows = append(t.Rows, lossRow(m, i, "no tokens issued", false))
	}
	d.add(t)
	plotImage(d, opt, PlotFencing, "lost updates with and without fencing")
}

// lossRow is one row of the lost-updates table.
func lossRow(m *Measurements, i int, store string, noFence bool) []TCell {
	r := []TCell{plain("%s", m.Patterns[i].Name), plain("%s", store)}
	for _, c := range m.Cells[i] {
		runs, total := c.LostRuns, c.Lost
		if noFence && c.NoFence != nil {
			runs, total = c.NoFence.Runs, c.NoFence.Total
		}
		tone := Good
		if runs > 0 {
			tone = Bad
		}
		if noFence {
			tone = Plain
		}
		r = append(r, cell(tone, text("%s, %d lost", rateMark(runs, c.Seeds), total)))
	}
	return r
}
