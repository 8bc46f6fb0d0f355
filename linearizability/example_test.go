package linearizability_test

import (
	"fmt"
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/linearizability"
)

// Two clients whose critical sections overlap both read 0 and both write
// 1: no order of atomic increments explains that, so the counter
// partition is illegal. The same sections one after the other are ok.
func ExampleCheckHistory() {
	const ms = int64(time.Millisecond)
	section := func(client int, call, ret, read int64) history.Op {
		return history.Op{Client: client, Kind: history.Section, Key: "counter", Call: call, Return: ret, OK: true, Value: read}
	}
	overlapping := &history.History{Pattern: "basic", Source: "sim", Ops: []history.Op{
		section(1, 0, 10*ms, 0),
		section(2, 5*ms, 15*ms, 0),
	}}
	sequential := &history.History{Pattern: "basic", Source: "sim", Ops: []history.Op{
		section(1, 0, 10*ms, 0),
		section(2, 11*ms, 20*ms, 1),
	}}
	for _, h := range []*history.History{overlapping, sequential} {
		rep, err := linearizability.CheckHistory(h, 10*time.Second)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(rep.Verdict, "ops:", rep.Ops, "counterexample:", rep.Counterexample != nil)
	}
	// Output:
	// illegal ops: 2 counterexample: true
	// ok ops: 2 counterexample: false
}
