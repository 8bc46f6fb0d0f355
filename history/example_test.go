package history_test

import (
	"bytes"
	"fmt"

	"github.com/locksim/locksim/history"
)

// A history is written by a run (the simulator or real Redis) and read
// back, validated, by the checkers. An operation whose reply never came
// keeps Return = history.Unknown.
func ExampleDecode() {
	h := &history.History{
		Pattern: "basic", Scenario: "gc-pause", Seed: 1, Source: "sim",
		Ops: []history.Op{
			{Client: 1, Kind: history.Acquire, Key: "lock", Call: 0, Return: 1_000_000, OK: true, Token: "c1-1"},
			{Client: 1, Kind: history.Section, Key: "counter", Call: 1_000_000, Return: 2_000_000, OK: true, Value: 0},
			{Client: 2, Kind: history.Acquire, Key: "lock", Call: 500_000, Return: history.Unknown},
		},
	}
	var buf bytes.Buffer
	if err := h.Encode(&buf); err != nil {
		fmt.Println(err)
		return
	}
	back, err := history.Decode(&buf)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, op := range back.Ops {
		fmt.Printf("c%d %s %s ok=%v unknown=%v\n", op.Client, op.Kind, op.Key, op.OK, op.Unknown())
	}
	// Output:
	// c1 acquire lock ok=true unknown=false
	// c1 section counter ok=true unknown=false
	// c2 acquire lock ok=false unknown=true
}
