package linearizability

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/anishathalye/porcupine"
	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/model"
)

// WriteViz writes porcupine's HTML visualisation of the report's check of
// h to w: the partitions that are not Ok (all of them when every one is),
// their linearizations or longest partial linearizations, and h.Events as
// annotations on the timeline (pauses, clock jumps, crashes, partitions),
// with a "checker" row marking the operations of the counterexample.
//
// The report must come from Check or CheckHistory on this same h. When
// several partitions are shown, they are checked again together (within
// the report's timeout) to give porcupine one linearization to draw.
func WriteViz(w io.Writer, h *history.History, r Report) error {
	if r.ops == nil && r.Ops > 0 || len(r.infos) != len(r.Parts) {
		return errors.New("linearizability: WriteViz needs a Report returned by Check on this history")
	}
	info, err := vizInfo(r)
	if err != nil {
		return err
	}
	info.AddAnnotations(Annotations(h))
	info.AddAnnotations(verdictAnnotations(h, r))
	return porcupine.Visualize(vizModel(h), info, w)
}

// vizInfo returns the linearization info of the partitions to show.
func vizInfo(r Report) (porcupine.LinearizationInfo, error) {
	show := shownParts(r)
	if len(show) == 1 && r.Parts[show[0]].Verdict != Unknown {
		return r.infos[show[0]], nil
	}
	want := map[model.Part]bool{}
	for _, i := range show {
		want[model.Part{Model: r.Parts[i].Model, Key: r.Parts[i].Key}] = true
	}
	var ops []porcupine.Operation
	for _, o := range r.ops {
		if p, _ := model.PartitionOf(o.Input); want[p] {
			ops = append(ops, o)
		}
	}
	_, info := porcupine.CheckOperationsVerbose(model.AllModel(), ops, r.Timeout)
	return info, nil
}

// shownParts returns the indexes of the partitions that are not Ok, or of
// all partitions when every one is Ok.
func shownParts(r Report) []int {
	var bad, all []int
	for i, p := range r.Parts {
		all = append(all, i)
		if p.Verdict != Ok {
			bad = append(bad, i)
		}
	}
	if len(bad) > 0 {
		return bad
	}
	return all
}

// vizModel is model.AllModel with the history's details in each operation's
// tooltip.
func vizModel(h *history.History) porcupine.Model {
	m := model.AllModel()
	m.DescribeOperationMetadata = func(meta any) string {
		i, ok := meta.(int)
		if !ok || i < 0 || i >= len(h.Ops) {
			return ""
		}
		return describeHistoryOp(i, h.Ops[i])
	}
	return m
}

func describeHistoryOp(i int, o history.Op) string {
	parts := []string{fmt.Sprintf("ops[%d] %s by client %d on %q", i, o.Kind, o.Client, o.Key)}
	if o.Token != "" {
		parts = append(parts, "token "+o.Token)
	}
	if o.Fence != 0 {
		parts = append(parts, fmt.Sprintf("fence %d", o.Fence))
	}
	if o.Count != 0 {
		parts = append(parts, fmt.Sprintf("count %d", o.Count))
	}
	if o.Unknown() {
		parts = append(parts, "never returned: outcome unknown")
	}
	if o.Err != "" {
		parts = append(parts, "error: "+o.Err)
	}
	return strings.Join(parts, "; ")
}

// Annotations turns h.Events into porcupine annotations: an event whose
// Target is "c<N>" goes on client N's row; any other target gets a row of
// its own named after it ("run" when empty). Events with an End span the
// interval; the others mark an instant.
func Annotations(h *history.History) []porcupine.Annotation {
	out := make([]porcupine.Annotation, 0, len(h.Events))
	for _, e := range h.Events {
		a := porcupine.Annotation{
			Start:       e.At,
			End:         max(e.End, e.At),
			Description: e.Kind,
			Details:     describeEvent(e),
		}
		a.TextColor, a.BackgroundColor = eventColors(e.Kind)
		if c, ok := clientTarget(e.Target); ok {
			a.ClientId = c
		} else {
			a.Tag = cmp.Or(e.Target, "run")
		}
		out = append(out, a)
	}
	return out
}

func describeEvent(e history.Event) string {
	s := fmt.Sprintf("%s %s at %s", e.Kind, cmp.Or(e.Target, "(run)"), seconds(e.At))
	if e.End > e.At {
		s += " until " + seconds(e.End)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// clientTarget parses "c<N>".
func clientTarget(target string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(target, "c"))
	if err != nil || !strings.HasPrefix(target, "c") || n < 0 {
		return 0, false
	}
	return n, true
}

// eventColors picks text and background colours by the kind of fault, so a
// reader tells pauses from clock trouble from crashes at a glance.
func eventColors(kind string) (text, background string) {
	k := strings.ToLower(kind)
	switch {
	case strings.Contains(k, "pause") || strings.Contains(k, "slow"):
		return "#000000", "#ffd27f" // orange
	case strings.Contains(k, "clock") || strings.Contains(k, "jump") || strings.Contains(k, "drift") || strings.Contains(k, "skew"):
		return "#ffffff", "#8e5ccf" // purple
	case strings.Contains(k, "crash") || strings.Contains(k, "restart") || strings.Contains(k, "down") || strings.Contains(k, "failover"):
		return "#ffffff", "#c0392b" // red
	case strings.Contains(k, "partition") || strings.Contains(k, "heal") || strings.Contains(k, "loss") || strings.Contains(k, "delay"):
		return "#ffffff", "#2e6da4" // blue
	}
	return "#000000", "#d0d0d0"
}

// verdictAnnotations marks, on a "checker" row, the span of the operations
// none of which could be linearized next.
func verdictAnnotations(h *history.History, r Report) []porcupine.Annotation {
	c := r.Counterexample
	if c == nil || len(c.Next) == 0 {
		return nil
	}
	start, end := c.Next[0].Call, int64(0)
	for _, s := range c.Next {
		start = min(start, s.Call)
		ret := s.Return
		if ret == history.Unknown {
			ret = End(h)
		}
		end = max(end, ret)
	}
	return []porcupine.Annotation{{
		Tag: "checker", Start: start, End: end,
		Description: fmt.Sprintf("not linearizable: %s %q", c.Model, c.Key),
		Details:     c.String(), TextColor: "#ffffff", BackgroundColor: "#b00020",
	}}
}
