package network

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/sim/node"
	"github.com/locksim/locksim/sim/sched"
	"github.com/locksim/locksim/sim/vclock"
)

// world is a scheduler, nodes, client processes and the network between.
type world struct {
	s       *sched.Sched
	net     *Net
	nodes   []*node.Node
	clients []*sched.Proc
	trace   []string
}

func newWorld(t *testing.T, nodes, clients int, lat Latency) *world {
	t.Helper()
	w := &world{s: sched.New()}
	w.net = New(w.s, 1, lat)
	w.net.Trace = func(l string) { w.trace = append(w.trace, fmt.Sprintf("%.3fms %s", float64(w.s.Now())/1e6, l)) }
	for i := range nodes {
		nd, err := node.New(node.Config{Name: fmt.Sprint("n", i+1)}, w.s)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nd.Close)
		w.nodes = append(w.nodes, nd)
		w.net.AddEndpoint(NodeEndpoint(nd))
	}
	for i := range clients {
		p := w.s.NewProc(fmt.Sprint("c", i+1), vclock.New(0))
		w.clients = append(w.clients, p)
		w.net.AddClient(p)
	}
	return w
}

// redis returns client c's connections to every node.
func (w *world) redis(c int) []locks.Redis {
	out := make([]locks.Redis, len(w.nodes))
	for e := range w.nodes {
		out[e] = w.net.NewRedisClient(c, e)
	}
	return out
}

func (w *world) opts(c int) locks.Options {
	return locks.Options{TTL: 100 * time.Millisecond, Clock: w.clients[c], Rand: locks.NewSeededRand(uint64(c), w.clients[c].Name())}
}

func (w *world) run(t *testing.T, until time.Duration) {
	t.Helper()
	if err := w.s.RunUntil(int64(until)); err != nil {
		t.Fatal(err)
	}
	if err := w.s.Shutdown(); err != nil {
		t.Fatal(err)
	}
}

var fixed = Latency{Base: time.Millisecond}

func TestBasicLockOverTheSimulatedNetwork(t *testing.T) {
	w := newWorld(t, 1, 2, fixed)
	var log []string
	for c := range 2 {
		l, err := locks.NewBasic(w.redis(c)[0], "lock", w.opts(c))
		if err != nil {
			t.Fatal(err)
		}
		w.clients[c].Spawn("main", func() {
			_ = w.clients[c].Sleep(context.Background(), time.Duration(c)*time.Millisecond)
			lease, err := l.Acquire(context.Background())
			log = append(log, fmt.Sprintf("c%d acquire %v at %dms", c+1, err == nil, w.s.Now()/1e6))
			if err == nil {
				_ = w.clients[c].Sleep(context.Background(), 10*time.Millisecond)
				log = append(log, fmt.Sprintf("c%d release %v at %dms", c+1, l.Release(context.Background(), lease), w.s.Now()/1e6))
			}
		})
	}
	w.run(t, time.Second)
	// Each Basic probes once (EVALSHA, NOSCRIPT, EVAL: 4ms) before its SET.
	want := "c1 acquire true at 6ms|c2 acquire false at 7ms|c1 release <nil> at 20ms"
	if got := strings.Join(log, "|"); got != want {
		t.Errorf("got  %s\nwant %s\ntrace:\n%s", got, want, strings.Join(w.trace, "\n"))
	}
	if !strings.Contains(strings.Join(w.trace, "\n"), "c1←n1 (error) NOSCRIPT") {
		t.Errorf("the first EVALSHA should meet NOSCRIPT and fall back to EVAL; trace:\n%s", strings.Join(w.trace, "\n"))
	}
}

func TestLostReplyTimesOutButTakesEffect(t *testing.T) {
	w := newWorld(t, 1, 1, fixed)
	w.net.Timeout = 50 * time.Millisecond
	w.net.Link(0, 0).Slow(Reply, time.Second) // the reply comes far too late
	r := w.net.NewRedisClient(0, 0)
	var err error
	var at int64
	w.clients[0].Spawn("main", func() {
		err = r.SetNX(context.Background(), "k", "v", time.Minute).Err()
		at = w.s.Now()
	})
	w.run(t, 2*time.Second)
	var te *TimeoutError
	if !errors.As(err, &te) || at != int64(50*time.Millisecond) {
		t.Fatalf("SetNX = %v at %v, want a timeout at 50ms", err, time.Duration(at))
	}
	if got := w.nodes[0].Peek([]string{"k"})[0].Type; got != "string" {
		t.Errorf("key type on the node = %q: the SET should have taken effect", got)
	}
	if w.net.Stats().Late != 1 {
		t.Errorf("late replies = %d, want 1", w.net.Stats().Late)
	}
}

func TestDeadlineBeatsTimeoutAndPartitionDrops(t *testing.T) {
	w := newWorld(t, 1, 1, fixed)
	w.net.Link(0, 0).Partition(true)
	r := w.net.NewRedisClient(0, 0)
	var err error
	var at int64
	p := w.clients[0]
	p.Spawn("main", func() {
		ctx, cancel := p.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		err = r.SetNX(ctx, "k", "v", time.Minute).Err()
		at = w.s.Now()
	})
	w.run(t, time.Second)
	if !errors.Is(err, context.DeadlineExceeded) || at != int64(20*time.Millisecond) {
		t.Errorf("SetNX = %v at %v, want DeadlineExceeded at 20ms", err, time.Duration(at))
	}
	if got := w.nodes[0].Peek([]string{"k"})[0].Type; got != "none" {
		t.Errorf("key type = %q: a partitioned request must not arrive", got)
	}
}

func TestDownNodeRefuses(t *testing.T) {
	w := newWorld(t, 1, 1, fixed)
	w.nodes[0].Crash()
	r := w.net.NewRedisClient(0, 0)
	var err error
	var at int64
	w.clients[0].Spawn("main", func() {
		err = r.SetNX(context.Background(), "k", "v", time.Minute).Err()
		at = w.s.Now()
	})
	w.run(t, time.Second)
	var re *RefusedError
	if !errors.As(err, &re) || at != int64(2*time.Millisecond) {
		t.Errorf("SetNX = %v at %v, want connection refused after one round trip (2ms)", err, time.Duration(at))
	}
}

func TestRedlockQuorumOverFiveNodes(t *testing.T) {
	for _, down := range []int{0, 2, 3} {
		t.Run(fmt.Sprint(down, "down"), func(t *testing.T) {
			w := newWorld(t, 5, 1, DefaultLatency)
			for i := range down {
				w.nodes[i].Crash()
			}
			l, err := locks.NewRedlock(w.redis(0), "lock", w.opts(0))
			if err != nil {
				t.Fatal(err)
			}
			var aerr error
			w.clients[0].Spawn("main", func() { _, aerr = l.Acquire(context.Background()) })
			w.run(t, time.Second)
			if wantOK := down < 3; (aerr == nil) != wantOK {
				t.Errorf("Acquire with %d of 5 nodes down = %v, want success %v", down, aerr, wantOK)
			}
			if down == 3 && (!errors.Is(aerr, locks.ErrUnavailable) || errors.Is(aerr, locks.ErrQuorum)) {
				t.Errorf("Acquire = %v, want ErrUnavailable (not ErrQuorum: the nodes are down, not taken)", aerr)
			}
		})
	}
}

func TestCommandsAsGoRedisFormatsThem(t *testing.T) {
	w := newWorld(t, 1, 1, fixed)
	r := w.net.NewRedisClient(0, 0)
	var got []string
	w.net.Observe = func(rec CallRecord) { got = append(got, rec.Req.Describe()) }
	w.clients[0].Spawn("main", func() {
		ctx := context.Background()
		r.SetNX(ctx, "a", 1.5, 1500*time.Millisecond)
		r.SetNX(ctx, "b", true, 2*time.Second)
		r.SetNX(ctx, "c", int64(7), 0)
		if v, err := r.Eval(ctx, "return redis.call('GET', KEYS[1])", []string{"a"}).Result(); v != "1.5" || err != nil {
			t.Errorf("Eval GET = %v, %v; want 1.5", v, err)
		}
		if err := r.Eval(ctx, "return redis.call('GET', KEYS[1])", []string{"zz"}).Err(); err != redis.Nil {
			t.Errorf("Eval of a nil reply: err = %v, want redis.Nil", err)
		}
	})
	w.run(t, time.Second)
	want := "SET a 1.5 px 1500 nx|SET b 1 ex 2 nx|SET c 7 nx|EVAL script:"
	if g := strings.Join(got, "|"); !strings.HasPrefix(g, want) {
		t.Errorf("commands = %s, want prefix %s", g, want)
	}
}
