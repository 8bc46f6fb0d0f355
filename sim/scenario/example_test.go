package scenario_test

import (
	"fmt"

	"github.com/locksim/locksim/sim/scenario"
)

// A scenario file round-trips: parsed into plain data, and written back
// with every default spelled out. A bad line fails with its line number,
// directive and field.
func ExampleParseString() {
	s, err := scenario.ParseString(`scenario my-pause
start nodes=1 clients=2 ttl=100ms duration=250ms
pause c1 on=write for=150ms
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Name, s.Clients, s.TTL, len(s.Faults), s.Faults[0].Kind)
	fmt.Print(scenario.Format(s))

	_, err = scenario.ParseString("start ttl=soon\n")
	fmt.Println(err)
	// Output:
	// my-pause 2 100ms 1 pause
	// scenario my-pause
	// start nodes=1 clients=2 ttl=100ms duration=250ms
	// workload work=20ms jitter=10ms think=10ms prep=0s check=yes acquire-timeout=1s retry=10ms
	// net latency=200us jitter=300us tail=1% tail-latency=5ms loss=0% timeout=3s
	// pause c1 on=write for=150ms
	// line 1: start: field ttl: bad duration "soon" (want e.g. 150ms, 1.5s, 200us)
}
