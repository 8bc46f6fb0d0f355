package linearizability

import (
	"fmt"
	"slices"
	"strings"

	"github.com/anishathalye/porcupine"
	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/model"
)

// tailSteps is how many steps of the linearizable prefix a counterexample
// keeps: the ones leading to the state in which nothing fits.
const tailSteps = 5

// Counterexample explains why a partition is not linearizable: porcupine's
// longest linearizable prefix, the state it leaves the model in, and the
// operations that could come next, none of which the model allows from
// that state (nor from any other order of the prefix).
type Counterexample struct {
	Model      string `json:"model"`
	Key        string `json:"key"`
	Ops        int    `json:"ops"`        // ops in the partition
	Linearized int    `json:"linearized"` // length of the longest linearizable prefix
	Tail       []Step `json:"tail"`       // the prefix's last steps, with the state after each
	State      string `json:"state"`      // the state after the prefix
	Next       []Step `json:"next"`       // the ops that could come next; none fits
}

// Step is one operation of a counterexample.
type Step struct {
	Op     int    `json:"op"` // index in the history's Ops
	Client int    `json:"client"`
	Call   int64  `json:"call"`
	Return int64  `json:"return"` // history.Unknown if it never returned
	Desc   string `json:"desc"`
	State  string `json:"state,omitempty"` // the model's state after it (prefix steps only)
}

func counterexample(h *history.History, pr PartResult, part []porcupine.Operation, info porcupine.LinearizationInfo) *Counterexample {
	m := model.AllModel()
	prefix := longestPartial(info)
	c := &Counterexample{Model: pr.Model, Key: pr.Key, Ops: len(part), Linearized: len(prefix), State: "initial"}
	state := m.Init()
	done := map[int]bool{}
	for i, o := range prefix {
		_, state = m.Step(state, o.Input, o.Output)
		c.State = m.DescribeState(state)
		done[o.Metadata.(int)] = true
		if i >= len(prefix)-tailSteps {
			c.Tail = append(c.Tail, step(h, m, o, c.State))
		}
	}
	for _, o := range candidates(part, done) {
		c.Next = append(c.Next, step(h, m, o, ""))
	}
	return c
}

// longestPartial returns the longest partial linearization of a one-
// partition check; among equals, the one whose op indexes sort first, so
// the choice does not depend on map order.
func longestPartial(info porcupine.LinearizationInfo) []porcupine.Operation {
	parts := info.PartialLinearizationsOperations()
	if len(parts) == 0 {
		return nil
	}
	var best []porcupine.Operation
	for _, p := range parts[0] {
		if len(p) > len(best) || (len(p) == len(best) && slices.Compare(indexes(p), indexes(best)) < 0) {
			best = p
		}
	}
	return best
}

func indexes(ops []porcupine.Operation) []int {
	out := make([]int, len(ops))
	for i, o := range ops {
		out[i] = o.Metadata.(int)
	}
	return out
}

// candidates returns the ops not yet linearized that could be linearized
// next: those called before the earliest return among them.
func candidates(part []porcupine.Operation, done map[int]bool) []porcupine.Operation {
	var rest []porcupine.Operation
	first := int64(-1)
	for _, o := range part {
		if done[o.Metadata.(int)] {
			continue
		}
		rest = append(rest, o)
		if first < 0 || o.Return < first {
			first = o.Return
		}
	}
	var out []porcupine.Operation
	for _, o := range rest {
		if o.Call <= first {
			out = append(out, o)
		}
	}
	return out
}

func step(h *history.History, m porcupine.Model, o porcupine.Operation, state string) Step {
	i := o.Metadata.(int)
	ho := h.Ops[i]
	return Step{Op: i, Client: ho.Client, Call: ho.Call, Return: ho.Return, Desc: m.DescribeOperation(o.Input, o.Output), State: state}
}

// String renders the counterexample for a person.
func (c *Counterexample) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %q is not linearizable: %d of its %d ops linearize, ending in state %s\n", c.Model, c.Key, c.Linearized, c.Ops, c.State)
	if len(c.Tail) > 0 {
		fmt.Fprintf(&b, "  the linearization ends with:\n")
		for _, s := range c.Tail {
			fmt.Fprintf(&b, "    %s  → %s\n", s, s.State)
		}
	}
	fmt.Fprintf(&b, "  and none of these can come next:\n")
	for _, s := range c.Next {
		fmt.Fprintf(&b, "    %s\n", s)
	}
	return b.String()
}

func (s Step) String() string {
	return fmt.Sprintf("ops[%d] c%d %s–%s %s", s.Op, s.Client, seconds(s.Call), seconds(s.Return), s.Desc)
}

// seconds formats a true-time instant in ns as seconds with µs precision.
func seconds(ns int64) string {
	if ns == history.Unknown {
		return "?"
	}
	return fmt.Sprintf("%.6fs", float64(ns)/1e9)
}
