package advise

import (
	"fmt"
	"io"
	"strings"
)

// UseText is the answer's choice in a line: the patterns to use, or that
// none is safe and the least bad.
func (a Answer) UseText() string {
	if a.NoneSafe && a.LeastBad != "" {
		return "none is safe here; least bad: " + a.LeastBad
	}
	if a.NoneSafe {
		return "none is safe here: no measured pattern serves it"
	}
	return strings.Join(a.Use, ", ")
}

// SettingsText is a pattern's settings in a line.
func (s Settings) Text() string {
	out := []string{"TTL " + s.TTL}
	if s.RenewEvery != "" {
		out = append(out, "renew every "+s.RenewEvery)
	}
	if s.WaitReplicas > 0 {
		out = append(out, fmt.Sprintf("wait for %d replica(s) after every grant and renewal (WaitReplicas)", s.WaitReplicas))
	}
	if s.Appendfsync != "" {
		out = append(out, "appendfsync "+s.Appendfsync)
	}
	if s.StoreTokenCheck {
		out = append(out, "the store refuses a write whose fencing token is lower than one it has seen")
	}
	if s.Nodes > 0 {
		out = append(out, fmt.Sprintf("%d nodes, quorum %d", s.Nodes, s.Quorum))
	}
	if s.Permits > 0 {
		out = append(out, fmt.Sprintf("%d permits", s.Permits))
	}
	if s.For != "" {
		out = append(out, "for "+s.For)
	}
	return strings.Join(out, "; ")
}

// Text is a residual in a line: "overlap under gc-pause: 0/20 (0%, 0–16%)".
func (r Residual) Text() string {
	if r.Scenario == "" {
		return r.Pattern + ": no scenario measured"
	}
	s := fmt.Sprintf("%s: %s under %s (its worst scenario): %s", r.Pattern, r.Kind, r.Scenario, rateText(r.Runs, r.Seeds))
	if r.Runs == 0 {
		s = fmt.Sprintf("%s: %s in no seed of its %d scenarios (the widest interval: %s under %s)", r.Pattern, r.Kind, r.Scenarios, rateText(0, r.Seeds), r.Scenario)
	}
	if r.Few {
		s += fmt.Sprintf(", clean but over fewer than %d seeds: a 10%% rate is not ruled out", seedsToSee(careRate))
	}
	if r.OneSeed {
		s += "; some scenario was judged on one seed only"
	}
	if r.Replay != "" {
		s += "; replay: " + r.Replay
	}
	return s
}

// WriteText writes the answer for a reader.
func (a Answer) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "situation: %s\n", a.Situation.Flags())
	fmt.Fprintf(&b, "use: %s\n", a.UseText())
	for _, name := range append(append([]string{}, a.Use...), a.LeastBad) {
		if st, ok := a.Settings[name]; ok {
			fmt.Fprintf(&b, "  %s: %s\n", name, st.Text())
		}
	}
	fmt.Fprintf(&b, "counted: %s\n", a.Counts)
	list(&b, "residual risk", a.Residual, Residual.Text)
	for _, m := range a.Mitigations {
		fmt.Fprintf(&b, "safe with %s: use %s (%s)\n  locksim advise %s\n", m.Change, strings.Join(m.Use, ", "), m.Residual.Text(), m.Flags)
	}
	list(&b, "not protected", a.NotProtected, func(s string) string { return s })
	list(&b, "not judged", a.NotJudged, func(s string) string { return s })
	list(&b, "on real Redis", a.Real, func(rc RealCheck) string { return rc.Text })
	if a.RunnerUp != nil {
		fmt.Fprintf(&b, "runner-up: %s: %s\n", a.RunnerUp.Pattern, a.RunnerUp.Why)
	}
	commit := a.Source.Commit
	if commit == "" {
		commit = "unknown"
	}
	fmt.Fprintf(&b, "evidence: %d cells (locksim advise --json lists them), from commit %s, %d seeds per scenario, %d per production scenario\n",
		len(a.Evidence), commit, a.Source.Seeds, a.Source.ProductionSeeds)
	_, err := io.WriteString(w, b.String())
	return err
}

func list[T any](b *strings.Builder, title string, xs []T, f func(T) string) {
	if len(xs) == 0 {
		return
	}
	fmt.Fprintf(b, "%s:\n", title)
	for _, x := range xs {
		fmt.Fprintf(b, "  - %s\n", f(x))
	}
}
