package scenario

import (
	"fmt"
	"strings"

	"github.com/locksim/locksim/sim/fault"
)

// A schedule is a fault line that stands for many occurrences, drawn
// over the run (see fault.Schedule):
//
//	pause c* every=exp(1s) for=exp(50ms)          GC pauses on every client, a Poisson process
//	crash n1 every=exp(10s) for=uniform(200ms) persist=yes
//	drift c* rate=uniform(±200ppm)                 one drift per client, drawn at t=0
//	jump c2 at=1s every=exp(5s) by=uniform(±1s)    clock steps, either way
//
// every=D (or exp(D), uniform(D)) is the gap from the end of one
// occurrence to the start of the next; for=, by= and rate= take exp(D),
// uniform(D) and, for signed values, uniform(±D).

// distPrefixes are the distributions as written before '('.
var distPrefixes = []fault.Dist{fault.Exp, fault.Uniform}

// cutDist splits exp(V), uniform(V) and uniform(±V) into the distribution
// and V; a plain value is fault.Fixed. field names the field in errors.
func cutDist(field, v string) (fault.Dist, string, error) {
	for _, d := range distPrefixes {
		rest, ok := strings.CutPrefix(v, string(d)+"(")
		if !ok {
			continue
		}
		body, closed := strings.CutSuffix(rest, ")")
		if !closed {
			return "", "", fmt.Errorf("field %s: %q: missing ')' (want e.g. exp(50ms), uniform(50ms), uniform(±1s))", field, v)
		}
		for _, pm := range []string{"±", "+-"} {
			if inner, signed := strings.CutPrefix(body, pm); signed && d == fault.Uniform {
				return fault.Spread, inner, nil
			}
		}
		return d, body, nil
	}
	return fault.Fixed, v, nil
}

// distInto wraps the setter of a drawn field (for=, by=, rate=) so that
// it also reads a distribution into dist.
func distInto(field string, dist *fault.Dist, inner setter) setter {
	return func(v string) error {
		d, body, err := cutDist(field, v)
		if err != nil {
			return err
		}
		*dist = d
		if d == fault.Spread && (strings.HasPrefix(body, "-") || strings.HasPrefix(body, "+")) {
			return fmt.Errorf("field %s: %q: uniform(±D) takes an unsigned D", field, v)
		}
		return inner(body)
	}
}

// everyInto reads every=: the gap between a schedule's occurrences.
func everyInto(f *fault.Fault) setter {
	return func(v string) error {
		d, body, err := cutDist("every", v)
		if err != nil {
			return err
		}
		if d == fault.Spread {
			return fmt.Errorf("field every: %q: a gap is not signed; want e.g. exp(1s) or uniform(1s)", v)
		}
		f.Sched.EveryDist = d
		if f.Sched.Every, err = parseDur("every", body); err != nil {
			return err
		}
		if f.Sched.Every <= 0 { // every=0s as every=exp(0s): no gap is no schedule
			return fmt.Errorf("field every: %v, want a positive gap (leave every= out for one occurrence)", f.Sched.Every)
		}
		return nil
	}
}

// formatDist writes a drawn field's value val under d.
func formatDist(d fault.Dist, val string) string {
	switch d {
	case fault.Fixed:
		return val
	case fault.Spread:
		return "uniform(±" + strings.TrimLeft(val, "+-") + ")"
	}
	return string(d) + "(" + val + ")"
}

// formatEvery writes a schedule's every= ("" when it does not repeat).
func formatEvery(f fault.Fault) string {
	if f.Sched.Every == 0 && f.Sched.EveryDist == fault.Fixed {
		return ""
	}
	return " every=" + formatDist(f.Sched.EveryDist, fmtDur(f.Sched.Every, false))
}
