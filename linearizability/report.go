package linearizability

import (
	"fmt"
	"strings"
)

// String renders the report for a person: the verdict, one line per
// partition and the counterexample, if any.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "linearizability: %s (%d ops checked, %d with unknown outcome, %d skipped", r.Verdict, r.Ops, r.Unknown, r.Skipped)
	if r.Timeout > 0 {
		fmt.Fprintf(&b, ", timeout %v", r.Timeout)
	}
	b.WriteString(")\n")
	for _, p := range r.Parts {
		fmt.Fprintf(&b, "  %-8s %-20q %-7s %d ops, %d unknown\n", p.Model, p.Key, p.Verdict, p.Ops, p.Unknown)
	}
	if r.Verdict == Unknown {
		b.WriteString("  the check ran out of time: this is not a pass; raise the timeout or shorten the run\n")
	}
	if r.Counterexample != nil {
		b.WriteString(r.Counterexample.String())
	}
	return b.String()
}
