package scenario

import (
	"fmt"
	"strings"
	"time"
)

// Lag is how a replica's delay for each write is drawn around the
// replicas directive's delay D.
type Lag string

// Lag distributions.
const (
	LagConst   Lag = ""        // delay=D: every write D late
	LagExp     Lag = "exp"     // delay=exp(D): exponential with mean D
	LagUniform Lag = "uniform" // delay=uniform(D): uniform on [0, 2D], mean D
)

// maxReplicas bounds the replicas per node.
const maxReplicas = 9

// replicaFields reads the replicas directive: delay=D|exp(D)|uniform(D)
// and n=N (replicas per node).
func (p *parser) replicaFields() map[string]setter {
	s := &p.s
	return map[string]setter{
		"delay": func(v string) error {
			lag, d, err := parseLag(v)
			s.Replicas, s.ReplicaLag = d, lag
			return err
		},
		"n": countInto("n", &s.ReplicaCount),
	}
}

// parseLag reads D, exp(D) or uniform(D).
func parseLag(v string) (Lag, time.Duration, error) {
	lag, inner := LagConst, v
	for _, l := range []Lag{LagExp, LagUniform} {
		if rest, ok := strings.CutPrefix(v, string(l)+"("); ok {
			body, closed := strings.CutSuffix(rest, ")")
			if !closed {
				return "", 0, fmt.Errorf("field delay: %q: missing ')' (want e.g. 50ms, exp(5ms), uniform(5ms))", v)
			}
			lag, inner = l, body
		}
	}
	d, err := time.ParseDuration(inner)
	if err != nil {
		return "", 0, fmt.Errorf("field delay: bad delay %q (want e.g. 50ms, exp(5ms), uniform(5ms))", v)
	}
	return lag, d, nil
}

// formatReplicas writes the replicas directive ("" without replicas).
func formatReplicas(s Scenario) string {
	if s.Replicas <= 0 {
		return ""
	}
	d := fmtDur(s.Replicas, false)
	if s.ReplicaLag != LagConst {
		d = string(s.ReplicaLag) + "(" + d + ")"
	}
	out := "replicas delay=" + d
	if s.ReplicaCount != 0 { // written only when set, so older files keep their canonical form
		out += fmt.Sprintf(" n=%d", s.ReplicaCount)
	}
	return out + "\n"
}

// validateReplicas checks the replicas directive's fields.
func (s Scenario) validateReplicas() error {
	switch {
	case s.Replicas < 0:
		return fmt.Errorf("replicas: field delay: %v is negative", s.Replicas)
	case s.ReplicaLag != LagConst && s.ReplicaLag != LagExp && s.ReplicaLag != LagUniform:
		return fmt.Errorf("replicas: field delay: unknown distribution %q (known: exp, uniform)", s.ReplicaLag)
	case s.ReplicaCount < 0 || s.ReplicaCount > maxReplicas:
		return fmt.Errorf("replicas: field n: %d, want 1 to %d", s.ReplicaCount, maxReplicas)
	case s.Replicas == 0 && (s.ReplicaCount != 0 || s.ReplicaLag != LagConst):
		return fmt.Errorf("replicas: field delay: missing (n= and a distribution need a delay, e.g. replicas delay=50ms n=2)")
	}
	return nil
}
