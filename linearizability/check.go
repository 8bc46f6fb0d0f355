package linearizability

import (
	"fmt"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/model"
)

// Verdict is the outcome of a check.
type Verdict string

// The verdicts. Unknown (the check ran out of time) is never a pass.
const (
	Ok      Verdict = "ok"      // linearizable
	Illegal Verdict = "illegal" // not linearizable: a counterexample exists
	Unknown Verdict = "unknown" // the check ran out of time before deciding
)

func verdictOf(r porcupine.CheckResult) Verdict {
	switch r {
	case porcupine.Ok:
		return Ok
	case porcupine.Illegal:
		return Illegal
	}
	return Unknown
}

// worse returns the verdict that dominates: Illegal over Unknown over Ok.
func worse(a, b Verdict) Verdict {
	rank := map[Verdict]int{Ok: 0, Unknown: 1, Illegal: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// Options configure a check.
type Options struct {
	// Timeout bounds the whole check; 0 means no limit. Partitions left
	// when it runs out are Unknown.
	Timeout time.Duration
	// Models selects the models; 0 means DefaultModels.
	Models Models
}

// Report is the outcome of a check: the verdict, one result per partition
// and, when a partition is illegal, the first counterexample.
type Report struct {
	Verdict Verdict       `json:"verdict"`
	Parts   []PartResult  `json:"parts"`
	Ops     int           `json:"ops"`     // ops checked
	Unknown int           `json:"unknown"` // of which with an unknown outcome
	Skipped int           `json:"skipped"` // ops of models not selected
	Timeout time.Duration `json:"timeout"` // the budget (0: none)
	// Counterexample explains the first illegal partition, nil if none.
	Counterexample *Counterexample `json:"counterexample,omitempty"`

	models Models
	ops    []porcupine.Operation
	infos  []porcupine.LinearizationInfo // per part, for WriteViz
}

// PartResult is the verdict on one partition.
type PartResult struct {
	Model   string  `json:"model"`
	Key     string  `json:"key"`
	Ops     int     `json:"ops"`
	Unknown int     `json:"unknown"` // ops with an unknown outcome
	Verdict Verdict `json:"verdict"`
}

// CheckHistory checks h with the default models (counter and register)
// within timeout (0: no limit).
func CheckHistory(h *history.History, timeout time.Duration) (Report, error) {
	return Check(h, Options{Timeout: timeout})
}

// Check converts h, partitions it by model and key, and checks each
// partition in turn against the time left. The error reports a malformed
// history; a violation is a Report whose Verdict is Illegal.
func Check(h *history.History, opt Options) (Report, error) {
	if opt.Models == 0 {
		opt.Models = DefaultModels
	}
	ops, skipped, err := Operations(h, opt.Models)
	if err != nil {
		return Report{}, err
	}
	r := Report{Verdict: Ok, Ops: len(ops), Skipped: skipped, Timeout: opt.Timeout, models: opt.Models, ops: ops}
	var deadline time.Time
	if opt.Timeout > 0 {
		deadline = time.Now().Add(opt.Timeout)
	}
	for _, part := range model.Partition(ops) {
		pr, info := checkPart(part, deadline)
		r.Parts = append(r.Parts, pr)
		r.infos = append(r.infos, info)
		r.Unknown += pr.Unknown
		r.Verdict = worse(r.Verdict, pr.Verdict)
		if pr.Verdict == Illegal && r.Counterexample == nil {
			r.Counterexample = counterexample(h, pr, part, info)
		}
	}
	return r, nil
}

// checkPart checks one partition with the time left before deadline (none
// if deadline is zero).
func checkPart(part []porcupine.Operation, deadline time.Time) (PartResult, porcupine.LinearizationInfo) {
	p, _ := model.PartitionOf(part[0].Input)
	pr := PartResult{Model: p.Model, Key: p.Key, Ops: len(part)}
	for _, o := range part {
		if unknownOutput(o.Output) {
			pr.Unknown++
		}
	}
	var left time.Duration // 0: no limit, for porcupine
	if !deadline.IsZero() {
		if left = time.Until(deadline); left <= 0 {
			pr.Verdict = Unknown
			return pr, porcupine.LinearizationInfo{}
		}
	}
	res, info := porcupine.CheckOperationsVerbose(model.AllModel(), part, left)
	pr.Verdict = verdictOf(res)
	return pr, info
}

func unknownOutput(out any) bool {
	switch o := out.(type) {
	case model.SectionOut:
		return o.Unknown
	case model.RegisterOut:
		return o.Unknown
	case model.LockOut:
		return o.Unknown
	}
	return false
}

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
