package scenario

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/locksim/locksim/sim/fault"
)

// Builtin is a named scenario. Make builds it for a pattern that uses
// nodes nodes, so that every built-in runs with any pattern.
type Builtin struct {
	Name    string
	Summary string
	Make    func(nodes int) Scenario
}

// Builtins returns the named scenarios, sorted by name.
func Builtins() []Builtin {
	out := append([]Builtin(nil), builtins...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Scenario builds b for a pattern with nodes nodes, named and resolved.
func (b Builtin) Scenario(nodes int) (Scenario, error) {
	s := b.Make(nodes)
	s.Name, s.Summary = b.Name, b.Summary
	return s.Resolve(nodes)
}

// Lookup returns the built-in scenario named name for nodes nodes.
func Lookup(name string, nodes int) (Scenario, error) {
	for _, b := range builtins {
		if b.Name == name {
			return b.Scenario(nodes)
		}
	}
	var names []string
	for _, b := range Builtins() {
		names = append(names, b.Name)
	}
	return Scenario{}, fmt.Errorf("unknown scenario %q (built-in: %s; or give a scenario file)", name, strings.Join(names, ", "))
}

const ms = time.Millisecond

func base(nodes int) Scenario {
	s := Default()
	s.Nodes = nodes
	return s
}

func on(client string, p fault.Point) fault.When { return fault.When{Client: client, Point: p, N: 1} }

func nodeNames(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, fmt.Sprint("n", i+1))
	}
	return out
}

var builtins = []Builtin{
	{"steady", "no faults: 5 clients for 30 simulated seconds (the throughput baseline)", steady},
	{"gc-pause", "c1 pauses (GC) for 1.5 TTL between its lease check and its write", gcPause},
	{"slow-work", "c1 takes 3 TTL to prepare its write after the lease check; its watchdog keeps running", slowWork},
	{"client-clock-jump", "the clients' wall clocks step by ±500ms while they hold the lock", clientClockJump},
	{"client-clock-drift", "c1's clock runs 40% slow, so its lease seems valid after the server expired it", clientClockDrift},
	{"node-clock-jump", "a node's clock jumps 2s ahead while c1 holds the lock; c2 reaches a quorum through it", nodeClockJump},
	{"node-restart-without-persistence", "n1 restarts empty while c1 holds the lock: the key and the fence counter are lost", nodeRestart},
	{"failover-async-replication", "n1 fails over to a replica that has not yet received c1's lock", failover},
	{"partition", "c1 is cut off from every node right after acquiring, for 3 TTL", partition},
	{"delayed-reply", "c1's first replies arrive 1.5 TTL late: a grant that has already expired", delayedReply},
	{"wrong-owner-release", "c1 overruns its TTL, skips its write, then releases a lock another client now holds", wrongOwnerRelease},
}

func steady(nodes int) Scenario {
	s := base(nodes)
	s.Clients, s.Duration = 5, 30*time.Second
	return s
}

func gcPause(nodes int) Scenario {
	s := base(nodes)
	s.Faults = []fault.Fault{{Kind: fault.Pause, Target: "c1", When: on("c1", fault.Write), For: 150 * ms}}
	return s
}

func slowWork(nodes int) Scenario {
	s := base(nodes)
	s.Faults = []fault.Fault{{Kind: fault.Slow, Target: "c1", When: on("c1", fault.Write), For: 300 * ms}}
	return s
}

func clientClockJump(nodes int) Scenario {
	s := base(nodes)
	s.Faults = []fault.Fault{
		{Kind: fault.Jump, Target: "c1", When: on("c1", fault.Acquired), By: 500 * ms},
		{Kind: fault.Jump, Target: "c2", When: on("c2", fault.Acquired), By: -500 * ms},
	}
	return s
}

func clientClockDrift(nodes int) Scenario {
	s := base(nodes)
	s.Faults = []fault.Fault{
		{Kind: fault.Drift, Target: "c1", PPM: -400_000},
		{Kind: fault.Slow, Target: "c1", When: on("c1", fault.Work), For: 50 * ms},
	}
	return s
}

// nodeClockJump splits the nodes so that c1 reaches the first quorum and c2
// the last one; they share the middle node(s), whose clock jumps past the
// TTL as soon as c1 holds the lock.
func nodeClockJump(nodes int) Scenario {
	s := base(nodes)
	s.TTL, s.Workload.Work, s.Workload.Jitter = time.Second, 300*ms, 100*ms
	s.Duration = 4 * time.Second
	q := nodes/2 + 1
	s.Faults = append(s.Faults, fault.Fault{Kind: fault.Pause, Target: "c2", For: 5 * ms}) // c1 takes the lock first
	if nodes > 1 {
		s.Faults = append(s.Faults,
			fault.Fault{Kind: fault.Partition, A: []string{"c1"}, B: nodeNames(q, nodes)},
			fault.Fault{Kind: fault.Partition, A: []string{"c2"}, B: nodeNames(0, nodes-q)})
	}
	for _, n := range nodeNames(nodes-q, q) {
		s.Faults = append(s.Faults, fault.Fault{Kind: fault.Jump, Target: n, When: on("c1", fault.Acquired), By: 2 * time.Second})
	}
	return s
}

func nodeRestart(nodes int) Scenario {
	s := base(nodes)
	s.Faults = []fault.Fault{{Kind: fault.Crash, Target: "n1", When: on("c1", fault.Acquired), For: 5 * ms}}
	return s
}

func failover(nodes int) Scenario {
	s := base(nodes)
	s.Replicas = 50 * ms
	s.Faults = []fault.Fault{{Kind: fault.Failover, Target: "n1", When: on("c1", fault.Acquired)}}
	return s
}

func partition(nodes int) Scenario {
	s := base(nodes)
	s.Faults = []fault.Fault{{Kind: fault.Partition, A: []string{"c1"}, B: nodeNames(0, nodes), When: on("c1", fault.Acquired), For: 300 * ms}}
	return s
}

func delayedReply(nodes int) Scenario {
	s := base(nodes)
	s.Faults = []fault.Fault{{Kind: fault.SlowLink, A: []string{"c1"}, B: nodeNames(0, nodes), For: 20 * ms, By: 150 * ms, Dir: fault.Reply}}
	return s
}

func wrongOwnerRelease(nodes int) Scenario {
	s := base(nodes)
	s.Clients = 3
	s.Workload.Work = 60 * ms // the lock is nearly always held when c1 releases
	s.Faults = []fault.Fault{
		{Kind: fault.Pause, Target: "c2", For: 5 * ms}, // c1 takes the lock first
		{Kind: fault.Pause, Target: "c3", For: 5 * ms},
		{Kind: fault.Slow, Target: "c1", When: on("c1", fault.Work), For: 150 * ms},
	}
	return s
}
