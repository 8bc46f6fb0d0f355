package bench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// Target is the set of Redis nodes a sweep runs against.
type Target struct {
	// Name labels the results: "miniredis (demo)" or "redis-server".
	Name string
	// Demo is true for embedded miniredis: its figures show the harness
	// working, not what Redis costs (miniredis builds a Lua interpreter per
	// script call and serialises everything behind one lock).
	Demo bool
	// Addrs are the nodes' addresses; Addrs[0] serves the Single family.
	Addrs []string

	embedded []*miniredis.Miniredis
}

// DemoName is the label of the embedded target.
const DemoName = "miniredis (demo)"

// Embedded starts n miniredis servers on loopback whose TTLs follow the
// wall clock, like a real server's.
func Embedded(n int) (*Target, error) {
	if n < 1 {
		return nil, fmt.Errorf("bench: embedded node count %d must be at least 1", n)
	}
	t := &Target{Name: DemoName, Demo: true}
	for range n {
		m := miniredis.NewMiniRedis()
		if err := m.Start(); err != nil {
			t.Close()
			return nil, fmt.Errorf("bench: start embedded redis: %w", err)
		}
		m.ClockTTL(true)
		t.embedded = append(t.embedded, m)
		t.Addrs = append(t.Addrs, m.Addr())
	}
	return t, nil
}

// Remote is a target of running Redis servers at addrs.
func Remote(addrs []string) (*Target, error) {
	if len(addrs) == 0 {
		return nil, errors.New("bench: --redis needs at least one address")
	}
	for i, a := range addrs {
		if strings.TrimSpace(a) == "" {
			return nil, fmt.Errorf("bench: redis address %d is empty", i+1)
		}
	}
	return &Target{Name: "redis-server", Addrs: addrs}, nil
}

// Close stops embedded servers (it leaves remote ones alone).
func (t *Target) Close() {
	for _, m := range t.embedded {
		m.Close()
	}
	t.embedded = nil
}

// Ping checks that every node answers.
func (t *Target) Ping(ctx context.Context) error {
	for _, a := range t.Addrs {
		c := redis.NewClient(&redis.Options{Addr: a, DialerRetries: 1, MaxRetries: -1})
		err := c.Ping(ctx).Err()
		c.Close()
		if err != nil {
			return fmt.Errorf("bench: redis %s: %w", a, err)
		}
	}
	return nil
}

// Open opens one go-redis client on each of the first n nodes, with a pool
// of the given size, counting every round trip in rt. Close them with
// CloseAll.
func (t *Target) Open(n, pool int, rt *Counter) ([]*redis.Client, error) {
	if n > len(t.Addrs) {
		return nil, fmt.Errorf("bench: %d nodes needed, target has %d", n, len(t.Addrs))
	}
	out := make([]*redis.Client, n)
	for i := range n {
		c := redis.NewClient(&redis.Options{
			Addr: t.Addrs[i], PoolSize: pool, DialerRetries: 1, MaxRetries: -1,
			DialTimeout: 2 * time.Second,
		})
		c.AddHook(roundTrips{rt})
		out[i] = c
	}
	return out, nil
}

// CloseAll closes clients.
func CloseAll(cs []*redis.Client) {
	for _, c := range cs {
		c.Close()
	}
}

// roundTrips is a go-redis hook that counts round trips: one per command,
// one per pipeline. A new connection's handshake (HELLO, CLIENT SETINFO,
// AUTH, SELECT, which go-redis sends through the same hooks) is not counted:
// it is paid once per connection, not per lock operation.
type roundTrips struct{ n *Counter }

func (h roundTrips) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h roundTrips) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if !handshake(cmd) {
			h.n.Inc()
		}
		return next(ctx, cmd)
	}
}

func (h roundTrips) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if len(cmds) == 0 || slices.ContainsFunc(cmds, func(c redis.Cmder) bool { return !handshake(c) }) {
			h.n.Inc()
		}
		return next(ctx, cmds)
	}
}

// handshake reports whether cmd is one go-redis sends to set a connection up.
func handshake(cmd redis.Cmder) bool {
	switch cmd.Name() {
	case "hello", "client", "auth", "select":
		return true
	}
	return false
}

// deleteKeys removes every key containing prefix from the nodes (lock keys
// left by an interrupted cycle, and fence counters, which never expire).
func deleteKeys(ctx context.Context, nodes []*redis.Client, prefix string) error {
	var errs []error
	for _, c := range nodes {
		iter := c.Scan(ctx, 0, "*"+prefix+"*", 1000).Iterator()
		var batch []string
		for iter.Next(ctx) {
			batch = append(batch, iter.Val())
		}
		if err := iter.Err(); err != nil {
			errs = append(errs, err)
			continue
		}
		if len(batch) > 0 {
			errs = append(errs, c.Del(ctx, batch...).Err())
		}
	}
	return errors.Join(errs...)
}
