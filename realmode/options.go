package realmode

import (
	"errors"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// ErrRefused marks a scenario whose lock settings the pattern's
// constructor refuses: its TTL, its node count or an option of its
// pattern line. The error in the chain says which (a *locks.OptionError
// names the field and the value).
var ErrRefused = errors.New("the pattern refuses the scenario's lock settings")

// CheckBuild builds p's lock the way a client process builds it under sc
// (sc's node count, or p's; sc.LockOptions), over clients that are never
// dialled, and returns the constructor's error wrapped in ErrRefused, or
// nil when it builds. A pattern without a constructor (one only a client
// program knows) is not checked. The simulator builds its clients' locks
// with the same options, so the check holds for a simulated run too.
func CheckBuild(p pattern.Pattern, sc scenario.Scenario) (err error) {
	if p.New == nil {
		return nil
	}
	n := sc.Nodes
	if n == 0 {
		n = p.Nodes
	}
	conns := make([]locks.Redis, n)
	for i := range conns {
		// Never dialled: constructors send nothing. One address a node, as
		// Redlock refuses one server twice; context deadlines honoured, as
		// every constructor requires and the client processes' clients do.
		c := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", i+1), ContextTimeoutEnabled: true})
		defer c.Close()
		conns[i] = c
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: pattern %s: New panicked: %v", ErrRefused, p.Name, r)
		}
	}()
	if _, err := p.New(conns, sim.Key, sc.LockOptions()); err != nil {
		return fmt.Errorf("%w: pattern %s with %d nodes: %w", ErrRefused, p.Name, n, err)
	}
	return nil
}

// patternFields are the pattern-line options a scenario sets, as the
// scenario format names them.
func patternFields(o scenario.PatternOptions) []string {
	var set []string
	for _, f := range []struct {
		name string
		on   bool
	}{
		{"renew-every", o.RenewEvery != 0}, {"drift", o.DriftFactor != 0}, {"node-timeout", o.NodeTimeout != 0},
		{"retry-attempts", o.RetryAttempts != 0}, {"retry-max-delay", o.RetryMaxDelay != 0},
		{"wait-replicas", o.WaitReplicas != 0}, {"wait-timeout", o.WaitTimeout != 0},
	} {
		if f.on {
			set = append(set, f.name)
		}
	}
	return set
}

// libraryOptions refuses the pattern-line options of a scenario for a
// library subject: its adapter takes the TTL and the first retry backoff
// and nothing else, so any other option would be silently ignored.
func libraryOptions(sc scenario.Scenario, cfg Config) error {
	if !cfg.Library {
		return nil
	}
	if set := patternFields(sc.Pattern); len(set) > 0 {
		return fmt.Errorf("%w: scenario %s: pattern %s: %s is a library subject, which takes the TTL and the first retry backoff (retry-delay) only",
			ErrUnsupported, sc.Name, strings.Join(set, ", "), cfg.Pattern.Name)
	}
	return nil
}
