package advise

import (
	"fmt"
	"slices"
	"strings"
)

// settings are what make o's answer hold in s.
func settings(s Situation, o *option) Settings {
	p := o.p
	st := Settings{StoreTokenCheck: p.Tokens && s.DoubleRun == DoubleTokens}
	switch {
	case s.Work == WorkBounded && p.Renews:
		st.TTL = "longer than the longest pause the holder must survive; the watchdog renews it"
	case s.Work == WorkBounded:
		st.TTL = "longer than the work's bound plus the longest pause, with margin for the round trip"
	case p.Renews:
		st.TTL = "a few renewal round trips; the watchdog renews it for as long as the work lasts"
	case p.Tokens:
		st.TTL = "runs out under unbounded work (no renewal): the lock is then another's, and the store's token check refuses the late write"
	default:
		st.TTL = "runs out under unbounded work (no renewal): a second client then takes the lock while the first still works"
	}
	if p.Renews {
		st.RenewEvery = "TTL/3"
	}
	if o.wait {
		st.WaitReplicas = 1
	}
	switch s.Topology {
	case TopoFsyncAlways:
		st.Appendfsync = "always"
	case TopoSingle:
		st.Appendfsync = "everysec or none, as measured: a restart loses the latest grants and tokens"
	case TopoIndependent:
		st.Nodes, st.Quorum = s.Nodes, s.Nodes/2+1
	}
	if s.Access == AccessSlots {
		st.Permits = s.Slots
	}
	return st
}

// whyLost says why ru lost to best.
func whyLost(ru, best *option, k Kind) string {
	switch {
	case !ru.safe && ru.worst >= 0:
		j := ru.judged[ru.worst]
		return fmt.Sprintf("%s under %s: %s (its worst scenario)", k.Name, j.Scenario, rateText(j.Runs, j.Seeds))
	case !ru.safe:
		return "no scenario of the situation was measured for it"
	case ru.fit > best.fit:
		return "as clean here, but it serves the access less well (a mutex where readers could share)"
	case complexity(ru.p) > complexity(best.p):
		return fmt.Sprintf("as clean here, but it adds %s, which the measurements do not reward in this situation", strings.Join(mechanisms(ru.p, best.p), " and "))
	}
	return "ranked after it by name: the evidence does not tell them apart"
}

// mechanisms names what p has that q has not.
func mechanisms(p, q *Pattern) []string {
	var out []string
	for _, m := range []struct {
		has  func(*Pattern) bool
		name string
	}{
		{func(p *Pattern) bool { return p.Nodes > 1 }, "more nodes"},
		{func(p *Pattern) bool { return p.Renews }, "renewal"},
		{func(p *Pattern) bool { return p.Tokens }, "fencing tokens"},
		{func(p *Pattern) bool { return p.FIFO }, "a queue"},
		{func(p *Pattern) bool { return p.Shared }, "shared holdings"},
		{func(p *Pattern) bool { return p.MaxHolders > 0 }, "counted holdings"},
		{func(p *Pattern) bool { return p.Reentrant }, "a hold count for re-entry"},
	} {
		if m.has(p) && !m.has(q) {
			out = append(out, m.name)
		}
	}
	if len(out) == 0 {
		out = []string{"mechanisms"}
	}
	return out
}

// hotKey adds, where a double run is harmless and the benchmark measured
// one hot key, the used-set's fastest alternative whose interval lies
// wholly above the first choice's: the lock is there for throughput.
func hotKey(a *Answer, s Situation, e *Evidence, opts, chosen []*option) {
	if s.DoubleRun != DoubleHarmless || a.NoneSafe || len(e.HotKey) == 0 {
		return
	}
	first := hot(e, chosen[0].p.Name)
	if first == nil {
		return
	}
	var best *Throughput
	var bo *option
	for _, o := range opts {
		t := hot(e, o.p.Name)
		if o.safe && o.fit == chosen[0].fit && t != nil && t.Lo > first.Hi && (best == nil || t.CyclesPerSec > best.CyclesPerSec) {
			best, bo = t, o
		}
	}
	if best == nil || slices.Contains(a.Use, bo.p.Name) {
		return
	}
	st := settings(s, bo)
	st.For = fmt.Sprintf("one hot key: %.0f cycles/s (%.0f–%.0f) against %s's %.0f (%.0f–%.0f) at %d clients (%s)",
		best.CyclesPerSec, best.Lo, best.Hi, first.Pattern, first.CyclesPerSec, first.Lo, first.Hi, best.Clients, e.HotKeySource)
	a.Use = append(a.Use, bo.p.Name)
	a.Settings[bo.p.Name] = st
	a.Residual = append(a.Residual, residual(bo, kind(s)))
	a.Evidence = append(a.Evidence, bo.judged...)
}

func hot(e *Evidence, name string) *Throughput {
	i := slices.IndexFunc(e.HotKey, func(t Throughput) bool { return t.Pattern == name })
	if i < 0 {
		return nil
	}
	return &e.HotKey[i]
}

// notProtected says what the chosen option leaves open.
func notProtected(s Situation, o *option, k Kind, ix *index, scs []scen) []string {
	var out []string
	p := o.p
	overlap := worstOf(o, ix, scs, func(c *Cell) Count { return c.Overlap })
	switch {
	case k.Name == kindLost.Name && p.Tokens:
		out = append(out, "the job may still run twice: fencing refuses only the stale write, not the second run ("+overlap+")")
	case k.Name == kindStall.Name:
		out = append(out, "double runs are thinned, not prevented: harmless by your answer ("+overlap+"; "+doubleRuns(o, ix)+")")
	case s.DoubleRun == DoubleHarmful && s.Access != AccessSlots:
		out = append(out, "a store that cannot check tokens cannot refuse a late write: any double run these scenarios did not provoke lands")
	}
	if p.Renews {
		out = append(out, "a holder paused or cut off past the TTL loses the lock and must check its lease before it writes (the simulated workload does)")
	}
	if s.Topology == TopoIndependent && (s.Clocks == ClocksStable || s.Pauses != PausesAbove) {
		out = append(out, "Redlock's safety rests on clocks that do not jump and pauses well under the TTL: you said so; nothing checks it at run time")
	}
	if s.Topology == TopoSingle {
		out = append(out, "a restart that loses the last second of writes (appendfsync everysec) can lose the lock and, for fenced patterns, the fence counter")
	}
	return append(out, "faults outside the scenarios listed in the evidence; a clean cell is that many clean seeds, not a proof")
}

// worstOf describes the worst measured scenario of o by another count.
func worstOf(o *option, ix *index, scs []scen, of func(*Cell) Count) string {
	wk, wn, ws := 0, 0, ""
	for _, j := range o.judged {
		c := ix.cells[[2]string{j.Pattern, j.Scenario}]
		if c == nil || c.Seeds == 0 {
			continue
		}
		n := of(c)
		if ws == "" || n.Runs*wn > wk*c.Seeds {
			wk, wn, ws = n.Runs, c.Seeds, j.Scenario
		}
	}
	if ws == "" {
		return "not measured"
	}
	return fmt.Sprintf("two clients relied on the lock at once in %s under %s, the worst of these scenarios", rateText(wk, wn), ws)
}

// doubleRuns describes the most double runs per acquisition of o's
// measured scenarios, counted as executions.
func doubleRuns(o *option, ix *index) string {
	var worst *Cell
	for _, j := range o.judged {
		c := ix.cells[[2]string{j.Pattern, j.Scenario}]
		if c == nil || c.Acquisitions == 0 {
			continue
		}
		if worst == nil || c.DoubleRuns*worst.Acquisitions > worst.DoubleRuns*c.Acquisitions {
			worst = c
		}
	}
	if worst == nil {
		return "no acquisitions measured"
	}
	return fmt.Sprintf("%d double runs in %d acquisitions under %s, the most per acquisition", worst.DoubleRuns, worst.Acquisitions, worst.Scenario)
}

// mitigations are the changes a team can make under which some pattern
// is safe: a store that checks tokens, appendfsync always on one node.
func mitigations(s Situation, ix *index) []Mitigation {
	var out []Mitigation
	try := func(change, flag, value string) {
		t := s
		if t.Get(flag) == value {
			return
		}
		if err := t.Set(flag, value); err != nil {
			return
		}
		b := advise(t, ix, false)
		if !b.NoneSafe {
			out = append(out, Mitigation{Change: change, Flags: t.Flags(), Use: b.Use, Residual: b.Residual[0]})
		}
	}
	if s.DoubleRun == DoubleHarmful && s.Access != AccessSlots {
		try("a store that checks fencing tokens (it rejects a write whose token is lower than one it has seen)", "double-run", DoubleTokens)
	}
	if s.Topology == TopoSingle || s.Topology == TopoReplicas {
		try("one node with appendfsync always, which keeps every acknowledged grant and token across a restart", "topology", TopoFsyncAlways)
	}
	return out
}

// rateText is "5/20 (25%, 11–47%)", as the report writes rates.
func rateText(k, n int) string {
	if n == 0 {
		return "0/0 (no seeds)"
	}
	lo, hi := wilson(k, n)
	return fmt.Sprintf("%d/%d (%s%%, %s–%s%%)", k, n, pct(float64(k)/float64(n)), pct(lo), pct(hi))
}
