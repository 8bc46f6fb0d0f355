package advise

import (
	"fmt"
	"strconv"
	"strings"
)

// The values of each dimension of a Situation, as the flags spell them.
const (
	DoubleHarmless = "harmless"
	DoubleTokens   = "store-checks-tokens"
	DoubleHarmful  = "harmful"

	TopoSingle      = "single"
	TopoFsyncAlways = "single-fsync-always"
	TopoReplicas    = "replicas"
	TopoIndependent = "independent" // with Nodes

	PausesNone  = "none"
	PausesBelow = "below-ttl"
	PausesAbove = "above-ttl"

	WorkBounded   = "bounded"
	WorkUnbounded = "unbounded"

	ClocksStable = "stable"
	ClocksJump   = "may-jump"

	AccessExclusive  = "exclusive"
	AccessReadMostly = "read-mostly"
	AccessSlots      = "slots" // with Slots
	AccessFIFO       = "fifo"
)

// Situation is what a team knows of its system.
type Situation struct {
	// DoubleRun is what two clients running the guarded work at once
	// costs: harmless; harmful but the store checks fencing tokens
	// (rejects a write whose token is lower than one it has seen); or
	// harmful with a store that cannot check them.
	DoubleRun string `json:"double_run"`
	// Topology is the Redis deployment: one node (restarting with what
	// its last fsync kept), one with appendfsync always, a primary with
	// replicas and asynchronous failover (Sentinel), or Nodes independent
	// nodes.
	Topology string `json:"topology"`
	Nodes    int    `json:"nodes,omitempty"`
	// Pauses are the client's stop-the-world pauses (GC, VM steal)
	// against the TTL: none, always below it, or some above it.
	Pauses string `json:"pauses"`
	// Work is how long the guarded work lasts: with a known bound under
	// the TTL, or unbounded.
	Work string `json:"work"`
	// Clocks: the clients' and the nodes' clocks are stable, or may
	// drift or jump.
	Clocks string `json:"clocks"`
	// Access: one holder at a time, many readers and a rare writer, Slots
	// holders at once, or one holder at a time in arrival order.
	Access string `json:"access"`
	Slots  int    `json:"slots,omitempty"`
}

// Dimension is one question of the situation model: its flag, the
// question a team answers, and the values it takes (a value ending in
// ":N" takes a count).
type Dimension struct {
	Flag     string
	Question string
	Values   []string
}

// Dimensions lists the questions in the order the flags are asked.
func Dimensions() []Dimension {
	return []Dimension{
		{"double-run", "What does it cost when the guarded work runs twice at once?", []string{DoubleHarmless, DoubleTokens, DoubleHarmful}},
		{"topology", "How is Redis deployed?", []string{TopoSingle, TopoFsyncAlways, TopoReplicas, TopoIndependent + ":N"}},
		{"pauses", "Can a client pause (GC, VM steal), and for how long against the TTL?", []string{PausesNone, PausesBelow, PausesAbove}},
		{"work", "Is the work's duration bounded below the TTL?", []string{WorkBounded, WorkUnbounded}},
		{"clocks", "Can the clients' or the nodes' clocks drift or jump?", []string{ClocksStable, ClocksJump}},
		{"access", "How is the resource accessed?", []string{AccessExclusive, AccessReadMostly, AccessSlots + ":N", AccessFIFO}},
	}
}

// Set sets the dimension named flag from its flag value, checking it.
func (s *Situation) Set(flag, value string) error {
	v := strings.TrimSpace(value)
	switch flag {
	case "double-run":
		return oneOf(flag, v, &s.DoubleRun, DoubleHarmless, DoubleTokens, DoubleHarmful)
	case "topology":
		if rest, ok := strings.CutPrefix(v, TopoIndependent+":"); ok {
			n, err := count(flag, v, rest)
			if err == nil && (n < 3 || n%2 == 0) {
				err = fmt.Errorf("--%s %s: independent nodes must be an odd count of at least 3 (a majority of an even count ties)", flag, v)
			}
			if err != nil {
				return err
			}
			s.Topology, s.Nodes = TopoIndependent, n
			return nil
		}
		s.Nodes = 0
		return oneOf(flag, v, &s.Topology, TopoSingle, TopoFsyncAlways, TopoReplicas, TopoIndependent+":N")
	case "pauses":
		return oneOf(flag, v, &s.Pauses, PausesNone, PausesBelow, PausesAbove)
	case "work":
		return oneOf(flag, v, &s.Work, WorkBounded, WorkUnbounded)
	case "clocks":
		return oneOf(flag, v, &s.Clocks, ClocksStable, ClocksJump)
	case "access":
		if rest, ok := strings.CutPrefix(v, AccessSlots+":"); ok {
			n, err := count(flag, v, rest)
			if err == nil && n < 2 {
				err = fmt.Errorf("--%s %s: slots must be at least 2 (one slot is --access exclusive)", flag, v)
			}
			if err != nil {
				return err
			}
			s.Access, s.Slots = AccessSlots, n
			return nil
		}
		s.Slots = 0
		return oneOf(flag, v, &s.Access, AccessExclusive, AccessReadMostly, AccessSlots+":N", AccessFIFO)
	}
	return fmt.Errorf("advise: no dimension %q", flag)
}

func oneOf(flag, v string, dst *string, values ...string) error {
	for _, w := range values {
		if v == w && !strings.HasSuffix(w, ":N") {
			*dst = v
			return nil
		}
	}
	return fmt.Errorf("--%s %q: want one of %s", flag, v, strings.Join(values, ", "))
}

func count(flag, v, n string) (int, error) {
	c, err := strconv.Atoi(n)
	if err != nil || c > 99 {
		return 0, fmt.Errorf("--%s %s: N must be a whole number up to 99", flag, v)
	}
	return c, nil
}

// Get returns the dimension named flag as its flag spells it ("" unset).
func (s Situation) Get(flag string) string {
	switch flag {
	case "double-run":
		return s.DoubleRun
	case "topology":
		if s.Topology == TopoIndependent {
			return fmt.Sprintf("%s:%d", TopoIndependent, s.Nodes)
		}
		return s.Topology
	case "pauses":
		return s.Pauses
	case "work":
		return s.Work
	case "clocks":
		return s.Clocks
	case "access":
		if s.Access == AccessSlots {
			return fmt.Sprintf("%s:%d", AccessSlots, s.Slots)
		}
		return s.Access
	}
	return ""
}

// Missing names the flags of the dimensions not set, in order.
func (s Situation) Missing() []string {
	var out []string
	for _, d := range Dimensions() {
		if s.Get(d.Flag) == "" {
			out = append(out, d.Flag)
		}
	}
	return out
}

// Flags writes the situation as advise's flags, in order.
func (s Situation) Flags() string {
	var out []string
	for _, d := range Dimensions() {
		out = append(out, "--"+d.Flag+" "+s.Get(d.Flag))
	}
	return strings.Join(out, " ")
}

// All lists every combination of the dimensions, independent nodes and
// slots at the counts given (the report measures five nodes and two
// permits; other counts are answered the same way and say so).
func All(nodes, slots []int) []Situation {
	var out []Situation
	values := func(d Dimension) []string {
		var vs []string
		for _, v := range d.Values {
			switch v {
			case TopoIndependent + ":N":
				for _, n := range nodes {
					vs = append(vs, fmt.Sprintf("%s:%d", TopoIndependent, n))
				}
			case AccessSlots + ":N":
				for _, n := range slots {
					vs = append(vs, fmt.Sprintf("%s:%d", AccessSlots, n))
				}
			default:
				vs = append(vs, v)
			}
		}
		return vs
	}
	var walk func(i int, s Situation)
	dims := Dimensions()
	walk = func(i int, s Situation) {
		if i == len(dims) {
			out = append(out, s)
			return
		}
		for _, v := range values(dims[i]) {
			t := s
			if err := t.Set(dims[i].Flag, v); err != nil {
				panic(err) // the values above are the model's own
			}
			walk(i+1, t)
		}
	}
	walk(0, Situation{})
	return out
}
