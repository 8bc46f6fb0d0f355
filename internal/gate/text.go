package gate

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteJSON writes r as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes every check, the variants caught, then each deviation
// with what was expected, what was seen and how to replay it, and a
// verdict line.
func (r *Result) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "expectations %s: %d checks over %d cells (%d runs; %d seeds a cell unless its line says), %d lines not gated (may)\n\n",
		r.Source, len(r.Checks), r.Cells, r.Runs, r.Seeds, r.NotGated)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\tLINE\tPATTERN\tSCENARIO\tEXPECT\tCLAIM\tBROKE\tFIRST SEED")
	for _, o := range r.Checks {
		mark := "ok"
		if !o.OK {
			mark = "FAIL"
		}
		first := "-"
		if o.FirstSeed != nil {
			first = fmt.Sprint(*o.FirstSeed)
		}
		line := "-" // a line Select added for an unlisted claim
		if o.Line > 0 {
			line = fmt.Sprint(o.Line)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d/%d\t%s\n", mark, line, o.Pattern, o.Scenario, o.Expect, o.Claim, o.Broke, o.Runs, first)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	r.writeVariants(w)
	for _, d := range r.Deviations {
		r.writeDeviation(w, d)
	}
	if r.Partial != nil {
		_, err := fmt.Fprintf(w, "\ncheck: PARTIAL: stopped after %d of %d runs; %d checks of the cells that finished, %d deviations; no verdict\n",
			r.Partial.Done, r.Partial.Total, len(r.Checks), len(r.Deviations))
		return err
	}
	if r.OK() {
		rest := ""
		if r.caught() < len(r.Variants) {
			rest = " (the rest exempt)"
		}
		_, err := fmt.Fprintf(w, "\ncheck: ok: %d checks as expected, %d of %d broken variants caught%s\n",
			len(r.Checks), r.caught(), len(r.Variants), rest)
		return err
	}
	_, err := fmt.Fprintf(w, "\ncheck: FAILED: %d deviations\n", len(r.Deviations))
	return err
}

func (r *Result) writeVariants(w io.Writer) {
	if len(r.Variants) == 0 {
		return
	}
	fmt.Fprintln(w, "\nbroken variants:")
	for _, c := range r.Variants {
		switch {
		case c.Exempt && !c.Caught:
			fmt.Fprintf(w, "  %s (of %s): not caught here, exempt: %s\n", c.Variant, c.Of, c.Why)
			continue
		case !c.Caught:
			fmt.Fprintf(w, "  %s (of %s): NOT CAUGHT\n", c.Variant, c.Of)
			continue
		}
		fmt.Fprintf(w, "  %s (of %s): caught under %s, breaks %s (%s holds it); seed %d\n",
			c.Variant, c.Of, c.Scenario, c.Claim, c.Of, *c.Seed)
	}
}

func (r *Result) writeDeviation(w io.Writer, d Deviation) {
	where := r.Source
	if d.Line > 0 {
		where = fmt.Sprintf("%s:%d", r.Source, d.Line)
	}
	fmt.Fprintf(w, "\nDEVIATION %s: %s\n  expected: %s\n  seen:     %s\n", where, d.What, d.Expected, d.Seen)
	if d.Replay != "" {
		fmt.Fprintf(w, "  replay:   %s\n", d.Replay)
	}
}

func (r *Result) caught() int {
	n := 0
	for _, c := range r.Variants {
		if c.Caught {
			n++
		}
	}
	return n
}
