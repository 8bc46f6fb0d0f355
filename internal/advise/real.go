package advise

import (
	"fmt"
	"strings"
)

// RealCell is one pattern under one scenario of real mode's agreement
// table, as the report that wrote the evidence read it: whether real
// redis-server runs and the simulator's seeds agree on every kind of
// claim, and whether the cell was made by the report's own code.
type RealCell struct {
	Pattern  string `json:"pattern"`
	Scenario string `json:"scenario"`
	// Runs counts the real runs.
	Runs int `json:"runs"`
	// Agree: kind by kind, both sides broke a claim in some run or
	// neither did; Disagree names the kinds where they differ.
	Agree    bool     `json:"agree"`
	Disagree []string `json:"disagree,omitempty"`
	// Stale says why the cell was made by other lock code, scenarios,
	// claims or oracles than the evidence's ("" when fresh): it confirms
	// nothing.
	Stale string `json:"stale,omitempty"`
	// Commit is the commit the real runs were made from.
	Commit string `json:"commit"`
}

// RealCheck is, for one pattern an answer names, what real mode says of
// the scenarios the answer judged it on.
type RealCheck struct {
	Pattern string `json:"pattern"`
	// Confirmed: real mode ran the pattern under some of those scenarios,
	// every such cell is fresh and agrees with the simulator.
	Confirmed bool `json:"confirmed"`
	// The answer's scenarios by what real mode's table says of them.
	Agree    []string `json:"agree"`
	Disagree []string `json:"disagree"`
	Stale    []string `json:"stale"`
	NotRun   []string `json:"not_run"`
	// Text is the check in a line, as every surface prints it.
	Text string `json:"text"`
}

// realCheck looks up real mode's cells for o's judged scenarios; ok is
// false when the evidence holds no agreement table at all.
func realCheck(o *option, e *Evidence) (RealCheck, bool) {
	if e.RealSource == "" {
		return RealCheck{}, false
	}
	rc := RealCheck{Pattern: o.p.Name, Agree: []string{}, Disagree: []string{}, Stale: []string{}, NotRun: []string{}}
	for _, j := range o.judged {
		if !j.Measured {
			continue
		}
		c := e.realCell(o.p.Name, j.Scenario)
		switch {
		case c == nil:
			rc.NotRun = append(rc.NotRun, j.Scenario)
		case c.Stale != "":
			rc.Stale = append(rc.Stale, j.Scenario)
		case !c.Agree:
			rc.Disagree = append(rc.Disagree, j.Scenario+" ("+strings.Join(c.Disagree, ", ")+")")
		default:
			rc.Agree = append(rc.Agree, j.Scenario)
		}
	}
	rc.Confirmed = len(rc.Agree) > 0 && len(rc.Disagree) == 0 && len(rc.Stale) == 0
	rc.Text = rc.text()
	return rc, true
}

func (rc RealCheck) text() string {
	var b strings.Builder
	switch {
	case rc.Confirmed:
		fmt.Fprintf(&b, "%s: confirmed on real redis-server under %s (fresh cells that agree on every kind of claim)", rc.Pattern, strings.Join(rc.Agree, ", "))
	case len(rc.Agree)+len(rc.Disagree)+len(rc.Stale) == 0:
		fmt.Fprintf(&b, "%s: not confirmed on real redis-server: real mode ran none of its scenarios", rc.Pattern)
	default:
		fmt.Fprintf(&b, "%s: not confirmed on real redis-server", rc.Pattern)
		for _, part := range []struct {
			what string
			xs   []string
		}{{"disagrees under", rc.Disagree}, {"stale under", rc.Stale}, {"agrees under", rc.Agree}} {
			if len(part.xs) > 0 {
				fmt.Fprintf(&b, "; %s %s", part.what, strings.Join(part.xs, ", "))
			}
		}
	}
	if len(rc.NotRun) > 0 && len(rc.Agree)+len(rc.Disagree)+len(rc.Stale) > 0 {
		fmt.Fprintf(&b, "; not run on real Redis: %s", strings.Join(rc.NotRun, ", "))
	}
	return b.String()
}

// realChecks are the checks of the chosen options, and what the answer
// cannot say without an agreement table.
func realChecks(a *Answer, chosen []*option, e *Evidence) {
	for _, o := range chosen {
		rc, ok := realCheck(o, e)
		if !ok {
			a.NotJudged = append(a.NotJudged, "confirmation on real Redis: the evidence holds no agreement table (locksim report --real DIR reads the one locksim real --table DIR/README.md writes)")
			return
		}
		a.Real = append(a.Real, rc)
	}
}

func (e *Evidence) realCell(pattern, scenario string) *RealCell {
	for i := range e.Real {
		if e.Real[i].Pattern == pattern && e.Real[i].Scenario == scenario {
			return &e.Real[i]
		}
	}
	return nil
}
