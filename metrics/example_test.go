package metrics_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/metrics"
)

// A Service lock counts what it does into a locks.Metrics; a Collector
// exports those counts to Prometheus, labelled by the lock's key and kind.
func ExampleCollector() {
	m, err := miniredis.Run()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), ContextTimeoutEnabled: true})
	defer rdb.Close()

	counts := &locks.Metrics{}
	svc, err := locks.NewService(rdb, "orders", locks.Options{TTL: 10 * time.Second, Metrics: counts})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	for range 2 {
		lease, err := svc.Acquire(ctx)
		if err != nil {
			fmt.Println(err)
			return
		}
		if err := svc.Release(ctx, lease); err != nil {
			fmt.Println(err)
			return
		}
	}

	c := metrics.NewCollector()
	c.Track(metrics.Target{Key: "orders", Kind: locks.KindReentrant}, counts)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(c)
	want := `# HELP locksim_lock_acquired_total Successful acquisitions (re-entries included).
# TYPE locksim_lock_acquired_total counter
locksim_lock_acquired_total{key="orders",kind="reentrant"} 2
`
	err = testutil.GatherAndCompare(reg, strings.NewReader(want), "locksim_lock_acquired_total")
	fmt.Println("acquired_total matches:", err == nil)
	fmt.Println("released:", counts.Snapshot().Released)
	// Output:
	// acquired_total matches: true
	// released: 2
}
