package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// PatternOptions are the pattern's own settings (the locks.Options the
// simulator builds each client's locker with). A zero field keeps the
// default: the pattern's for RenewEvery, DriftFactor and NodeTimeout;
// retrying until the workload's acquire-timeout for RetryAttempts; the
// pattern's (16 × the first backoff) for RetryMaxDelay. The lock TTL, the
// node count and the first retry backoff are the scenario's TTL, Nodes and
// Workload.Retry, which the pattern directive may set too.
type PatternOptions struct {
	RenewEvery    time.Duration // locks.Options.RenewEvery (Watchdog, Service, redlock-watchdog; not given to the others)
	DriftFactor   float64       // locks.Options.DriftFactor (its range is the lock's rule)
	NodeTimeout   time.Duration // locks.Options.NodeTimeout (Redlock)
	RetryAttempts int           // locks.Retry.Attempts; 0: retry until acquire-timeout
	RetryMaxDelay time.Duration // locks.Retry.MaxDelay
	WaitReplicas  int           // locks.Options.WaitReplicas (the single-node locks)
	WaitTimeout   time.Duration // locks.Options.WaitTimeout
}

// IsZero reports whether every option keeps its default.
func (o PatternOptions) IsZero() bool { return o == PatternOptions{} }

// patternFields are the pattern directive's fields: its own, and ttl,
// nodes and retry-delay, which are the start line's ttl and nodes and the
// workload's retry (each may be given on one line only).
func (p *parser) patternFields() map[string]setter {
	o := &p.s.Pattern
	return map[string]setter{
		"renew-every": durInto("renew-every", &o.RenewEvery), "drift": floatInto("drift", &o.DriftFactor),
		"node-timeout": durInto("node-timeout", &o.NodeTimeout), "retry-attempts": countInto("retry-attempts", &o.RetryAttempts),
		"retry-max-delay": durInto("retry-max-delay", &o.RetryMaxDelay),
		"wait-replicas":   countInto("wait-replicas", &o.WaitReplicas), "wait-timeout": durInto("wait-timeout", &o.WaitTimeout),
		"ttl": durInto("ttl", &p.s.TTL), "nodes": countInto("nodes", &p.s.Nodes),
		"retry-delay": durInto("retry-delay", &p.s.Workload.Retry),
	}
}

// checkShared refuses a field given on the pattern line and on its other
// line (start's ttl or nodes, workload's retry), naming both lines.
func (p *parser) checkShared(dir string, args []string) error {
	other := map[string]map[string]string{
		"start":    {"ttl": "ttl", "nodes": "nodes"},
		"workload": {"retry": "retry-delay"},
		"pattern":  {"ttl": "ttl", "nodes": "nodes", "retry-delay": "retry-delay"},
	}[dir]
	for _, a := range args {
		k, _, _ := strings.Cut(a, "=")
		shared, ok := other[k]
		if !ok {
			continue
		}
		if first, dup := p.shared[shared]; dup {
			return fmt.Errorf("field %s: also given on line %d (give it on one line)", k, first)
		}
		p.shared[shared] = p.line
	}
	return nil
}

func floatInto(field string, dst *float64) setter {
	return func(v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("field %s: bad number %q (want e.g. 0.01)", field, v)
		}
		*dst = f
		return nil
	}
}

// validate checks what the scenario format adds to the lock's own rules
// (see Scenario.checkLock): retry-attempts counts from 1, 0 meaning until
// acquire-timeout, so a negative count has no meaning here.
func (o PatternOptions) validate() error {
	if o.RetryAttempts < 0 {
		return fmt.Errorf("field retry-attempts: %d is negative", o.RetryAttempts)
	}
	return nil
}

// formatPattern writes the pattern line of the options that are set, or "".
func formatPattern(o PatternOptions) string {
	if o.IsZero() {
		return ""
	}
	var f []string
	if o.RenewEvery != 0 {
		f = append(f, "renew-every="+fmtDur(o.RenewEvery, false))
	}
	if o.DriftFactor != 0 {
		f = append(f, "drift="+strconv.FormatFloat(o.DriftFactor, 'g', -1, 64))
	}
	if o.NodeTimeout != 0 {
		f = append(f, "node-timeout="+fmtDur(o.NodeTimeout, false))
	}
	if o.RetryAttempts != 0 {
		f = append(f, "retry-attempts="+strconv.Itoa(o.RetryAttempts))
	}
	if o.RetryMaxDelay != 0 {
		f = append(f, "retry-max-delay="+fmtDur(o.RetryMaxDelay, false))
	}
	if o.WaitReplicas != 0 {
		f = append(f, "wait-replicas="+strconv.Itoa(o.WaitReplicas))
	}
	if o.WaitTimeout != 0 {
		f = append(f, "wait-timeout="+fmtDur(o.WaitTimeout, false))
	}
	return "pattern " + strings.Join(f, " ") + "\n"
}
