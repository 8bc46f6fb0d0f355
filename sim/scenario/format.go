package scenario

import (
	"fmt"
	"io"
	"strings"
)

// Format writes s as canonical text: every field of start, workload and
// net, then replicas (if any) and the faults in order.
func Format(s Scenario) string {
	var b strings.Builder
	if s.Name != "" {
		fmt.Fprintf(&b, "scenario %s\n", s.Name)
	}
	if s.Summary != "" {
		fmt.Fprintf(&b, "summary %s\n", s.Summary)
	}
	fmt.Fprintf(&b, "start nodes=%d clients=%d ttl=%s duration=%s\n", s.Nodes, s.Clients, fmtDur(s.TTL, false), fmtDur(s.Duration, false))
	w := s.Workload
	fmt.Fprintf(&b, "workload work=%s jitter=%s think=%s prep=%s check=%s acquire-timeout=%s retry=%s",
		fmtDur(w.Work, false), fmtDur(w.Jitter, false), fmtDur(w.Think, false), fmtDur(w.Prep, false),
		fmtBool(w.Check), fmtDur(w.AcquireTimeout, false), fmtDur(w.Retry, false))
	if w.Reenter { // written only when set, so older files keep their canonical form
		b.WriteString(" reenter=yes")
	}
	if w.ExtendEvery != 0 { // the same
		b.WriteString(" extend-every=" + fmtDur(w.ExtendEvery, false))
	}
	if w.ExtendOn != "" {
		b.WriteString(" extend-on=" + w.ExtendOn)
	}
	if w.Misuse {
		b.WriteString(" misuse=yes")
	}
	b.WriteByte('\n')
	b.WriteString(formatPattern(s.Pattern))
	n := s.Net
	fmt.Fprintf(&b, "net latency=%s jitter=%s tail=%s tail-latency=%s loss=%s timeout=%s\n",
		fmtDur(n.Latency.Base, false), fmtDur(n.Latency.Jitter, false), fmtRate(n.Latency.TailPPM, false),
		fmtDur(n.Latency.Tail, false), fmtRate(n.LossPPM, false), fmtDur(n.Timeout, false))
	b.WriteString(formatReplicas(s))
	for _, f := range s.Faults {
		b.WriteString(FormatFault(f))
		b.WriteByte('\n')
	}
	return b.String()
}

// Write writes Format(s) to w.
func Write(w io.Writer, s Scenario) error {
	_, err := io.WriteString(w, Format(s))
	return err
}
