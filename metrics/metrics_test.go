package metrics

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

func TestCollector(t *testing.T) {
	m := &locks.Metrics{}
	m.Acquired.Add(3)
	m.Failed.Add(1)
	m.Attempts.Add(5)
	m.Released.Add(2)
	m.Renewals.Add(4)
	m.Lost.Add(1)
	m.Waits.Observe(3 * time.Millisecond)
	m.Waits.Observe(200 * time.Millisecond)
	m.Waits.Observe(20 * time.Second)
	c := NewCollector()
	jobs, orders := Target{Key: "jobs", Kind: locks.KindFair}, Target{Key: "orders", Kind: locks.KindBasic}
	c.Track(jobs, m)
	c.Track(orders, &locks.Metrics{})
	want := `
# HELP locksim_lock_acquired_total Successful acquisitions (re-entries included).
# TYPE locksim_lock_acquired_total counter
locksim_lock_acquired_total{key="orders",kind="basic"} 0
locksim_lock_acquired_total{key="jobs",kind="fair"} 3
# HELP locksim_lock_lost_total Holdings lost while held.
# TYPE locksim_lock_lost_total counter
locksim_lock_lost_total{key="orders",kind="basic"} 0
locksim_lock_lost_total{key="jobs",kind="fair"} 1
# HELP locksim_lock_wait_seconds Time from Acquire to grant.
# TYPE locksim_lock_wait_seconds histogram
locksim_lock_wait_seconds_bucket{key="jobs",kind="fair",le="0.001"} 0
locksim_lock_wait_seconds_bucket{key="jobs",kind="fair",le="0.002"} 0
locksim_lock_wait_seconds_bucket{key="jobs",kind="fair",le="0.005"} 1
locksim_lock_wait_seconds_bucket{key="jobs",kind="fair",le="0.01"} 1
locksim_lock_wait_seconds_bucket{key="jobs",kind="fair",le="0.025"} 1
locksim_lock_wait_seconds_bucket{key="jobs",kind="fair",le="0.05"} 1
locksim_lock_wait_seconds_bucket{key="jobs",kind="fair",le="0.1"} 1
locksim_lock_wait_seconds_bucket{key="jobs",kind="fair",le="0.25"} 2
locksim_lock_wait_seconds_bucket{key="jobs",kind="fair",le="0.5"} 2
locksim_lock_wait_seconds_bucket{key="jobs",kind="fair",le="1"} 2
locksim_lock_wait_seconds_bucket{key="jobs",kind="fair",le="2.5"} 2
locksim_lock_wait_seconds_bucket{key="jobs",kind="fair",le="5"} 2
locksim_lock_wait_seconds_bucket{key="jobs",kind="fair",le="10"} 2
locksim_lock_wait_seconds_bucket{key="jobs",kind="fair",le="+Inf"} 3
locksim_lock_wait_seconds_sum{key="jobs",kind="fair"} 20.203
locksim_lock_wait_seconds_count{key="jobs",kind="fair"} 3
locksim_lock_wait_seconds_bucket{key="orders",kind="basic",le="0.001"} 0
locksim_lock_wait_seconds_bucket{key="orders",kind="basic",le="0.002"} 0
locksim_lock_wait_seconds_bucket{key="orders",kind="basic",le="0.005"} 0
locksim_lock_wait_seconds_bucket{key="orders",kind="basic",le="0.01"} 0
locksim_lock_wait_seconds_bucket{key="orders",kind="basic",le="0.025"} 0
locksim_lock_wait_seconds_bucket{key="orders",kind="basic",le="0.05"} 0
locksim_lock_wait_seconds_bucket{key="orders",kind="basic",le="0.1"} 0
locksim_lock_wait_seconds_bucket{key="orders",kind="basic",le="0.25"} 0
locksim_lock_wait_seconds_bucket{key="orders",kind="basic",le="0.5"} 0
locksim_lock_wait_seconds_bucket{key="orders",kind="basic",le="1"} 0
locksim_lock_wait_seconds_bucket{key="orders",kind="basic",le="2.5"} 0
locksim_lock_wait_seconds_bucket{key="orders",kind="basic",le="5"} 0
locksim_lock_wait_seconds_bucket{key="orders",kind="basic",le="10"} 0
locksim_lock_wait_seconds_bucket{key="orders",kind="basic",le="+Inf"} 0
locksim_lock_wait_seconds_sum{key="orders",kind="basic"} 0
locksim_lock_wait_seconds_count{key="orders",kind="basic"} 0
`
	err := testutil.CollectAndCompare(c, strings.NewReader(want),
		"locksim_lock_acquired_total", "locksim_lock_lost_total", "locksim_lock_wait_seconds")
	if err != nil {
		t.Error(err)
	}
	if n := testutil.CollectAndCount(c); n != 2*(len(counters)+1) {
		t.Errorf("CollectAndCount = %d, want %d (7 counters and a histogram per lock)", n, 2*(len(counters)+1))
	}
	c.Track(orders, nil)
	if n := testutil.CollectAndCount(c); n != len(counters)+1 {
		t.Errorf("after Track(orders, nil): %d metrics, want %d", n, len(counters)+1)
	}
	if problems, err := testutil.CollectAndLint(c); err != nil || len(problems) > 0 {
		t.Errorf("CollectAndLint = %v, %v", problems, err)
	}
}

func TestInspectCollector(t *testing.T) {
	mr := miniredis.RunT(t)
	r := redis.NewClient(&redis.Options{Addr: mr.Addr(), ContextTimeoutEnabled: true})
	t.Cleanup(func() { r.Close() })
	ctx, o := context.Background(), locks.Options{TTL: 2 * time.Second}
	re, _ := locks.NewReentrant(r, "orders", o)
	for range 2 {
		if _, err := re.Acquire(ctx); err != nil {
			t.Fatal(err)
		}
	}
	fair, _ := locks.NewFair(r, "jobs", locks.Options{TTL: time.Second, Retry: locks.Retry{Attempts: 1}})
	if _, err := fair.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	c := NewInspectCollector(r, Target{"orders", locks.KindReentrant}, Target{"jobs", locks.KindFair}, Target{"idle", locks.KindSemaphore})
	want := `
# HELP locksim_lock_holds Total hold count: re-entries for reentrant locks.
# TYPE locksim_lock_holds gauge
locksim_lock_holds{key="idle",kind="semaphore"} 0
locksim_lock_holds{key="jobs",kind="fair"} 1
locksim_lock_holds{key="orders",kind="reentrant"} 2
# HELP locksim_lock_held 1 if anyone holds the lock, else 0.
# TYPE locksim_lock_held gauge
locksim_lock_held{key="idle",kind="semaphore"} 0
locksim_lock_held{key="jobs",kind="fair"} 1
locksim_lock_held{key="orders",kind="reentrant"} 1
# HELP locksim_lock_ttl_seconds Lowest remaining TTL among the holders; 0 when free.
# TYPE locksim_lock_ttl_seconds gauge
locksim_lock_ttl_seconds{key="idle",kind="semaphore"} 0
locksim_lock_ttl_seconds{key="jobs",kind="fair"} 1
locksim_lock_ttl_seconds{key="orders",kind="reentrant"} 2
`
	if err := testutil.CollectAndCompare(c, strings.NewReader(want),
		"locksim_lock_holds", "locksim_lock_held", "locksim_lock_ttl_seconds"); err != nil {
		t.Error(err)
	}
	if problems, err := testutil.CollectAndLint(c); err != nil || len(problems) > 0 {
		t.Errorf("CollectAndLint = %v, %v", problems, err)
	}
}

// TestInspectCollectorError: a target that cannot be inspected fails the
// scrape with its error rather than vanishing.
func TestInspectCollectorError(t *testing.T) {
	mr := miniredis.RunT(t)
	r := redis.NewClient(&redis.Options{Addr: mr.Addr(), ContextTimeoutEnabled: true})
	t.Cleanup(func() { r.Close() })
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(NewInspectCollector(r, Target{"k", locks.Kind("nope")}))
	_, err := reg.Gather()
	var oe *locks.OptionError
	if err == nil || !errors.As(err, &oe) {
		t.Errorf("Gather = %v, want the OptionError on the kind", err)
	}
}
