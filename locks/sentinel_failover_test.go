package locks_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

// cmdLog records the dials and commands of a failover client (with their
// replies) and the test's own milestones, each with the time since the log
// began, to show where renewals went when a run goes wrong.
type cmdLog struct {
	mu    sync.Mutex
	start time.Time
	lines []string
}

func (g *cmdLog) DialHook(next redis.DialHook) redis.DialHook { return next }
func (g *cmdLog) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

func (g *cmdLog) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		s := cmd.String()
		if len(s) > 160 {
			s = s[:160]
		}
		g.add("%s", s)
		return err
	}
}

func (g *cmdLog) add(format string, args ...any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.lines = append(g.lines, fmt.Sprintf("%6.3fs ", time.Since(g.start).Seconds())+fmt.Sprintf(format, args...))
}

func (g *cmdLog) String() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return strings.Join(g.lines, "\n")
}

// failoverResult is what one SENTINEL FAILOVER did to the holdings.
type failoverResult struct {
	lost   map[string]error // the holdings that ended, and why
	taken  []string         // the locks a second client acquired while their holder's lease was valid
	window time.Duration    // from the replica's promotion to Sentinel's +switch-master
	log    *cmdLog
}

// failoverRun holds a Watchdog and a Service lock with options o through
// go-redis's failover client across one SENTINEL FAILOVER asked phase
// after the acquisitions, while a second client (o without WaitReplicas)
// tries to take both locks through a failover client of its own, and reports what happened until
// a TTL and a renewal period after Sentinel announced the new primary.
func failoverRun(t *testing.T, o locks.Options, phase time.Duration) failoverResult {
	ttl := o.TTL
	rs := startReplicaSet(t, direct)
	sentinel := startSentinel(t, rs.primary.Addr)
	ctx := context.Background()
	log := &cmdLog{start: time.Now()}
	var d net.Dialer
	fc := redis.NewFailoverClient(&redis.FailoverOptions{
		MasterName: "mymaster", SentinelAddrs: []string{sentinel}, DialerRetries: 1, ContextTimeoutEnabled: true,
		Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
			log.add("dial %s", addr)
			return d.DialContext(ctx, network, addr)
		},
	})
	fc.AddHook(log)
	t.Cleanup(func() { fc.Close() })
	other := redis.NewFailoverClient(&redis.FailoverOptions{MasterName: "mymaster", SentinelAddrs: []string{sentinel}, DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { other.Close() })
	news := map[string]func(r locks.Redis, key string, o locks.Options) (locks.Locker, error){
		"Watchdog": func(r locks.Redis, key string, o locks.Options) (locks.Locker, error) {
			return locks.NewWatchdog(r, key, o)
		},
		"Service": func(r locks.Redis, key string, o locks.Options) (locks.Locker, error) {
			o.Retry = locks.Retry{Attempts: 1}
			return locks.NewService(r, key, o)
		},
	}
	ro := o // the second client waits for no replica: the new primary has none yet
	ro.WaitReplicas, ro.WaitTimeout = 0, 0
	type held struct {
		name      string
		lk, rival locks.Locker
		lease     *locks.Lease
	}
	var hs []*held
	for _, name := range []string{"Watchdog", "Service"} {
		h := &held{name: name}
		var err error
		if h.lk, err = news[name](fc, "sentinel:"+name, o); err != nil {
			t.Fatal(err)
		}
		if h.rival, err = news[name](other, "sentinel:"+name, ro); err != nil {
			t.Fatal(err)
		}
		if h.lease, err = h.lk.Acquire(ctx); err != nil {
			t.Fatalf("%s.Acquire = %v", name, err)
		}
		hs = append(hs, h)
	}
	sc := redis.NewSentinelClient(&redis.Options{Addr: sentinel, DialerRetries: 1})
	t.Cleanup(func() { sc.Close() })
	sub := sc.Subscribe(ctx, "+switch-master")
	t.Cleanup(func() { sub.Close() })
	if _, err := sub.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	switched := make(chan time.Time, 1)
	go func() {
		if _, err := sub.ReceiveMessage(ctx); err == nil {
			log.add("+switch-master")
			switched <- time.Now()
		}
	}()
	time.Sleep(phase) // real time: where in the renewal cycle the failover starts
	eventually(t, 30*time.Second, "SENTINEL FAILOVER is accepted", func() bool {
		err := sc.Failover(ctx, "mymaster").Err()
		if err != nil && !strings.Contains(err.Error(), "NOGOODSLAVE") {
			t.Fatalf("SENTINEL FAILOVER = %v", err)
		}
		return err == nil
	})
	log.add("SENTINEL FAILOVER accepted (primary %s, replica %s)", rs.primary.Addr, rs.replica.Addr)
	res := failoverResult{lost: map[string]error{}, log: log}
	var promoted, sw time.Time
	until := time.Now().Add(time.Minute)
	for time.Now().Before(until) { // real time: a real Sentinel's failover
		if promoted.IsZero() {
			if info, err := rs.rc.Info(ctx, "replication").Result(); err == nil && strings.Contains(info, "role:master") {
				promoted = time.Now()
				log.add("the replica reports role:master")
			}
		}
		for _, h := range hs {
			if slices.Contains(res.taken, h.name) {
				continue
			}
			if l, err := h.rival.Acquire(ctx); err == nil {
				if err := h.lease.Err(); err == nil {
					log.add("a second client acquired %s while its holder's lease is valid", h.name)
					res.taken = append(res.taken, h.name)
				}
				_ = h.rival.Release(ctx, l)
			}
		}
		select {
		case sw = <-switched:
		default:
		}
		if !promoted.IsZero() && !sw.IsZero() {
			res.window = sw.Sub(promoted)
			if time.Since(sw) > ttl+renewEvery(o) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond) // real time: polling real Sentinel and redis-server processes
	}
	if promoted.IsZero() || res.window == 0 {
		t.Fatalf("no failover seen:\n%s", log)
	}
	for _, h := range hs {
		select {
		case <-h.lease.Done():
			res.lost[h.name] = h.lease.Err()
		default:
			if err := h.lk.Release(ctx, h.lease); err != nil {
				t.Errorf("%s.Release after the failover = %v", h.name, err)
			}
		}
	}
	return res
}

// renewEvery is the renewal period o gives.
func renewEvery(o locks.Options) time.Duration {
	if o.RenewEvery > 0 {
		return o.RenewEvery
	}
	return o.TTL / 3
}

// TestSentinelFailoverMeasure runs LOCKS_SENTINEL_RUNS failovers with
// holdings of LOCKS_SENTINEL_TTL (default 2s; LOCKS_SENTINEL_RENEW and
// LOCKS_SENTINEL_WAIT set RenewEvery and WaitReplicas), asked at phases spread
// evenly over a renewal period after the acquisitions, and logs in how many a
// holding ended or a second client acquired; it measures, it asserts
// nothing (the README's figures come from it).
func TestSentinelFailoverMeasure(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("LOCKS_SENTINEL_RUNS"))
	if n <= 0 {
		t.Skip("set LOCKS_SENTINEL_RUNS=N to measure N failovers")
	}
	ttl := 2 * time.Second
	if s := os.Getenv("LOCKS_SENTINEL_TTL"); s != "" {
		var err error
		if ttl, err = time.ParseDuration(s); err != nil {
			t.Fatal(err)
		}
	}
	o := locks.Options{TTL: ttl}
	if s := os.Getenv("LOCKS_SENTINEL_RENEW"); s != "" {
		var err error
		if o.RenewEvery, err = time.ParseDuration(s); err != nil {
			t.Fatal(err)
		}
	}
	o.WaitReplicas, _ = strconv.Atoi(os.Getenv("LOCKS_SENTINEL_WAIT"))
	lost, taken := 0, 0
	var windows []time.Duration
	for i := range n {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			res := failoverRun(t, o, time.Duration(i)*renewEvery(o)/time.Duration(n))
			windows = append(windows, res.window)
			if len(res.lost) > 0 {
				lost++
			}
			if len(res.taken) > 0 {
				taken++
			}
			if len(res.lost) > 0 || len(res.taken) > 0 {
				t.Logf("lost %v, taken %v, window %v\n%s", res.lost, res.taken, res.window, res.log)
			}
		})
	}
	t.Logf("TTL %v, RenewEvery %v, WaitReplicas %d: a holding ended in %d of %d failovers, a second client took a lock its holder still held in %d; promotion to +switch-master: %v",
		ttl, renewEvery(o), o.WaitReplicas, lost, n, taken, windows)
}

// TestSentinelFailoverWithinTheBound pins the bound the README states: a
// Watchdog or Service lock held through go-redis's failover client keeps
// its holding across SENTINEL FAILOVER, and no second client takes it,
// when the time from the replica's promotion to Sentinel's +switch-master
// is less than TTL - 2×RenewEvery. Renewals sent to the old primary
// between the two are lost with it (it is still a primary, and no longer
// replicated), so the promoted replica's copy of the key runs out a TTL
// after the last renewal it received: the holder's first renewal on the
// new primary must come before that. (With TTL 1s and the default
// RenewEvery, outside the bound, the holding ended in every failover and a
// second client took a lock its holder still held in 7 of 12: see
// TestSentinelFailoverMeasure.)
//
// A failover whose promotion took longer than the bound tests nothing
// here: the test tries up to withinTheBoundTries failovers for one inside
// it, and skips if none was, but fails under CI=true, where a skip would
// hide a Sentinel set-up that never meets the bound.
func TestSentinelFailoverWithinTheBound(t *testing.T) {
	o := locks.Options{TTL: 6 * time.Second, RenewEvery: time.Second}
	bound := o.TTL - 2*o.RenewEvery
	var windows []time.Duration
	for range withinTheBoundTries {
		res := failoverRun(t, o, 0)
		windows = append(windows, res.window)
		if res.window >= bound {
			continue
		}
		t.Logf("promotion to +switch-master took %v (bound %v); failovers tried: %v", res.window, bound, windows)
		if len(res.lost) > 0 || len(res.taken) > 0 {
			t.Errorf("failover within the bound (promotion to +switch-master %v): holdings ended %v, taken by a second client while held %v\n%s",
				res.window, res.lost, res.taken, res.log)
		}
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("promotion to +switch-master took %v in %d failovers, each past the bound (%v) this test pins, and CI=true requires it to run", windows, len(windows), bound)
	}
	t.Skipf("promotion to +switch-master took %v in %d failovers, each past the bound (%v) this test pins", windows, len(windows), bound)
}

// withinTheBoundTries is how many failovers TestSentinelFailoverWithinTheBound
// tries for one whose promotion is inside the bound.
const withinTheBoundTries = 3

// TestSentinelFailoverWaitReplicasNoOverlap: outside the bound, with
// WaitReplicas 1, the renewal that lands on the old primary after the
// promotion is not acknowledged (its replica is gone), so the holding ends
// there, with ErrLockLost, before the promoted replica's copy of the key
// runs out: a second client (waiting for no replica) takes the lock only
// after the holder has been told. Without WaitReplicas the same failover
// had a second client take a lock its holder still held in 7 of 12 runs.
func TestSentinelFailoverWaitReplicasNoOverlap(t *testing.T) {
	o := locks.Options{TTL: time.Second, WaitReplicas: 1}
	res := failoverRun(t, o, 0)
	if len(res.taken) > 0 {
		t.Errorf("a second client took %v while its holder's lease was valid (promotion to +switch-master %v)\n%s", res.taken, res.window, res.log)
	}
	for name, err := range res.lost {
		if !errors.Is(err, locks.ErrLockLost) {
			t.Errorf("%s's holding ended with %v, want ErrLockLost", name, err)
		}
	}
}
