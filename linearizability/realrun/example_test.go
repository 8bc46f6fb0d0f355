package realrun_test

import (
	"context"
	"fmt"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/linearizability"
	"github.com/locksim/locksim/linearizability/realrun"
	"github.com/locksim/locksim/locks"
)

// Four goroutines take the basic lock on a Redis server (here miniredis,
// in process) for five sections each; the recorded history is then
// checked with porcupine. With a TTL no section outlives, it is ok.
func ExampleRun() {
	m, err := miniredis.Run()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	m.ClockTTL(true) // TTLs follow the wall clock, as on a real server
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), ContextTimeoutEnabled: true})
	defer rdb.Close()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h, err := realrun.Run(ctx, realrun.Config{
		Pattern: "basic", Nodes: []locks.Redis{rdb}, Source: "miniredis",
		Clients: 4, Sections: 5, TTL: 10 * time.Second,
		Retry: locks.Retry{Attempts: 1000, Delay: time.Millisecond},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := linearizability.CheckHistory(h, time.Minute)
	if err != nil {
		fmt.Println(err)
		return
	}
	sections := 0
	for _, op := range h.Ops {
		if op.Kind == history.Section && op.OK {
			sections++
		}
	}
	fmt.Println("verdict:", rep.Verdict)
	fmt.Println("sections:", sections)
	// Output:
	// verdict: ok
	// sections: 20
}
