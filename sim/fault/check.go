package fault

import (
	"fmt"
	"time"

	"github.com/locksim/locksim/sim/vclock"
)

func clientName(field, name string, clients int) error {
	if !IsClient(name) {
		return fmt.Errorf("field %s: %q is not a client (c1, c2, …)", field, name)
	}
	if i := Index(name); i >= clients {
		return fmt.Errorf("field %s: %s, but the run has %d clients", field, name, clients)
	}
	return nil
}

func nodeName(field, name string, nodes int) error {
	if !IsNode(name) {
		return fmt.Errorf("field %s: %q is not a node (n1, n2, …)", field, name)
	}
	if i := Index(name); i >= nodes {
		return fmt.Errorf("field %s: %s, but the run has %d nodes", field, name, nodes)
	}
	return nil
}

func clientTarget(name string, clients int) error { return clientName("target", name, clients) }

func nodeTarget(name string, nodes int) error { return nodeName("target", name, nodes) }

func anyTarget(name string, nodes, clients int) error {
	if IsNode(name) {
		return nodeName("target", name, nodes)
	}
	return clientName("target", name, clients)
}

func linkEnd(name string, nodes, clients int) error {
	switch {
	case name == "db":
		return nil
	case IsNode(name):
		return nodeName("sides", name, nodes)
	}
	return clientName("sides", name, clients)
}

func positive(field string, d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("field %s: %v, want a positive duration", field, d)
	}
	return nil
}

func nonNegative(field string, d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("field %s: %v is negative", field, d)
	}
	return nil
}

func nonZero(field string, d time.Duration) error {
	if d == 0 {
		return fmt.Errorf("field %s: want a non-zero step", field)
	}
	return nil
}

func driftRange(ppm int64) error {
	if ppm < vclock.MinDriftPPM || ppm > vclock.MaxDriftPPM {
		return fmt.Errorf("field rate: %dppm outside [%d, %d]ppm", ppm, vclock.MinDriftPPM, vclock.MaxDriftPPM)
	}
	return nil
}

func lossRange(ppm int64) error {
	if ppm <= 0 || ppm > 1_000_000 {
		return fmt.Errorf("field rate: %dppm, want (0, 100%%]", ppm)
	}
	return nil
}

// oldSide checks a split brain's old= clients: at least one, each a
// client of the run, none twice.
func (f Fault) oldSide(clients int) error {
	if len(f.A) == 0 {
		return fmt.Errorf("field old: missing: name the clients that still reach the old primary (e.g. old=c1)")
	}
	seen := map[string]bool{}
	for _, c := range f.A {
		if err := clientName("old", c, clients); err != nil {
			return err
		}
		if seen[c] {
			return fmt.Errorf("field old: %s given twice", c)
		}
		seen[c] = true
	}
	return nil
}
