package bench

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
	// Addrs are the nodes' addresses (a URL without its password);
	// Addrs[0] serves the Single family.
	Addrs []string
	// Timeout bounds every call to a node: dial, write, read (default
	// DefaultTimeout). A node that stops answering fails the sweep with an
	// error naming it, within about this long.
	Timeout time.Duration

	opts     []*redis.Options // dial options per node; nil: plain Addrs
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

// Close stops embedded servers (it leaves remote ones alone).
func (t *Target) Close() {
	for _, m := range t.embedded {
		m.Close()
	}
	t.embedded = nil
}

// Ping checks that every node answers, each within the target's timeout.
func (t *Target) Ping(ctx context.Context) error {
	for i := range t.Addrs {
		if err := t.ping(ctx, i); err != nil {
			return fmt.Errorf("bench: redis %s: %w", t.Addrs[i], err)
		}
	}
	return nil
}

// stillAnswering checks, after a run, that each of its first n nodes
// still answers; the error names the first that does not.
func (t *Target) stillAnswering(ctx context.Context, n int) error {
	for i := range min(n, len(t.Addrs)) {
		if err := t.ping(ctx, i); err != nil {
			return fmt.Errorf("redis %s %w: %w", t.Addrs[i], ErrUnanswered, err)
		}
	}
	return nil
}

func (t *Target) ping(ctx context.Context, i int) error {
	c := redis.NewClient(t.options(i, 1))
	defer c.Close()
	return c.Ping(ctx).Err()
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
		c := redis.NewClient(t.options(i, pool))
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
