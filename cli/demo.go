package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/spf13/cobra"

	"github.com/locksim/locksim/locks"
)

func newDemoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Show every pattern acquiring and releasing on embedded Redis (nothing to install)",
		Long: `demo runs each lock pattern against embedded miniredis servers whose TTLs
follow the wall clock, and prints what happens: acquisition and release,
re-entry, a watchdog renewal, Redlock over 5 nodes with 2 down, and a fencing
token making a store reject a stale write. It takes about two seconds.`,
		Example: "  locksim demo",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := newDemo(5)
			if err != nil {
				return err
			}
			defer d.close()
			return d.run(cmd.Context(), cmd.OutOrStdout())
		},
	}
}

// demo holds embedded Redis nodes and their clients.
type demo struct {
	ms      []*miniredis.Miniredis
	clients []*redis.Client
	rand    *locks.SeededRand
}

func newDemo(n int) (*demo, error) {
	d := &demo{rand: locks.NewSeededRand(1, "tok")}
	for range n {
		m := miniredis.NewMiniRedis()
		if err := m.Start(); err != nil {
			d.close()
			return nil, fmt.Errorf("start embedded redis: %w", err)
		}
		m.ClockTTL(true) // TTLs run on the wall clock, like a real server
		d.ms = append(d.ms, m)
		d.clients = append(d.clients, redis.NewClient(&redis.Options{
			Addr: m.Addr(), DialerRetries: 1, DialTimeout: 200 * time.Millisecond, MaxRetries: -1, ContextTimeoutEnabled: true,
		}))
	}
	return d, nil
}

func (d *demo) close() {
	for _, c := range d.clients {
		c.Close()
	}
	for _, m := range d.ms {
		m.Close()
	}
}

func (d *demo) opts(ttl time.Duration) locks.Options {
	return locks.Options{TTL: ttl, Rand: d.rand}
}

func (d *demo) run(ctx context.Context, w io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	fmt.Fprintln(w, "locksim demo: every pattern on embedded Redis (miniredis, TTLs on the wall clock)")
	for _, step := range []func(context.Context, io.Writer) error{
		d.basic, d.reentrant, d.watchdog, d.service, d.redlock, d.fenced,
	} {
		fmt.Fprintln(w)
		if err := step(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

func (d *demo) basic(ctx context.Context, w io.Writer) error {
	a, err := locks.NewBasic(d.clients[0], "demo:basic", d.opts(time.Second))
	if err != nil {
		return err
	}
	b, _ := locks.NewBasic(d.clients[0], "demo:basic", d.opts(time.Second))
	la, err := a.Acquire(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "basic      client A acquired demo:basic (token %s, TTL 1s)\n", la.Token)
	_, err = b.Acquire(ctx)
	fmt.Fprintf(w, "basic      client B tries: %v\n", err)
	if err = b.Release(ctx, la2(la, "not-A")); errors.Is(err, locks.ErrNotHeld) {
		err = locks.ErrNotHeld // the reason (another Locker's lease) is beside the demo's point
	}
	fmt.Fprintf(w, "basic      client B releases with its own token: %v (A's key is untouched)\n", err)
	if err := a.Release(ctx, la); err != nil {
		return err
	}
	lb, err := b.Acquire(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "basic      A released; B acquired (token %s)\n", lb.Token)
	return b.Release(ctx, lb)
}

// la2 is a copy of l with another token: what a client that does not hold
// the lock presents.
func la2(l *locks.Lease, token string) *locks.Lease {
	c := *l
	c.Token = token
	return &c
}

func (d *demo) reentrant(ctx context.Context, w io.Writer) error {
	o := d.opts(time.Second)
	o.Owner = "worker-1"
	re, err := locks.NewReentrant(d.clients[0], "demo:reentrant", o)
	if err != nil {
		return err
	}
	var held []*locks.Lease
	for range 3 {
		l, err := re.Acquire(ctx)
		if err != nil {
			return err
		}
		held = append(held, l)
	}
	fmt.Fprintf(w, "reentrant  owner %s entered 3 times: count %d, TTL refreshed each time\n", re.Owner(), held[2].Count)
	for i := len(held) - 1; i >= 0; i-- {
		if err := re.Release(ctx, held[i]); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "reentrant  released 3 times: key exists = %v\n", d.ms[0].Exists("demo:reentrant"))
	return nil
}

func (d *demo) watchdog(ctx context.Context, w io.Writer) error {
	// A second of TTL (a renewal every third of it): on the wall clock a
	// loaded machine that stops the process for 200ms would end a 300ms
	// holding, and the demo would show a loss instead of a renewal.
	ttl := time.Second
	wd, err := locks.NewWatchdog(d.clients[0], "demo:watchdog", d.opts(ttl))
	if err != nil {
		return err
	}
	l, err := wd.Acquire(ctx)
	if err != nil {
		return err
	}
	time.Sleep(2 * ttl)
	pttl := d.clients[0].PTTL(ctx, "demo:watchdog").Val()
	fmt.Fprintf(w, "watchdog   TTL %v, held for %v: renewed every %v, key still there (PTTL %v), lease valid = %v\n",
		ttl, 2*ttl, (ttl / 3).Round(time.Millisecond), pttl.Round(10*time.Millisecond), l.Err() == nil)
	if err := wd.Release(ctx, l); err != nil {
		return err
	}
	time.Sleep(ttl)
	fmt.Fprintf(w, "watchdog   released: renewal stopped, key exists = %v\n", d.ms[0].Exists("demo:watchdog"))
	return nil
}

func (d *demo) service(ctx context.Context, w io.Writer) error {
	m := &locks.Metrics{}
	o := d.opts(300 * time.Millisecond)
	o.Metrics = m
	o.Retry = locks.Retry{Delay: 20 * time.Millisecond}
	a, err := locks.NewService(d.clients[0], "demo:service", o)
	if err != nil {
		return err
	}
	b, _ := locks.NewService(d.clients[0], "demo:service", o)
	la, err := a.Acquire(ctx)
	if err != nil {
		return err
	}
	go func() { time.Sleep(400 * time.Millisecond); _ = a.Release(context.Background(), la) }()
	start := time.Now()
	lb, err := b.Acquire(ctx) // blocks, retrying with backoff, until A releases
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "service    B waited %v for A (A's watchdog kept the lock past its 300ms TTL), then acquired\n",
		time.Since(start).Round(100*time.Millisecond))
	if err := b.Release(ctx, lb); err != nil {
		return err
	}
	s := m.Snapshot()
	fmt.Fprintf(w, "service    metrics: acquired %d, released %d, renewals %d, lost %d\n", s.Acquired, s.Released, s.Renewals, s.Lost)
	return nil
}

func (d *demo) redlock(ctx context.Context, w io.Writer) error {
	nodes := make([]locks.Redis, len(d.clients))
	for i, c := range d.clients {
		nodes[i] = c
	}
	rl, err := locks.NewRedlock(nodes, "demo:redlock", d.opts(time.Second))
	if err != nil {
		return err
	}
	d.ms[0].Close()
	d.ms[1].Close()
	l, err := rl.Acquire(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "redlock    5 nodes, n1 and n2 down: acquired on the other 3 (quorum %d), validity %v of TTL 1s\n",
		rl.Quorum(), l.Validity().Round(10*time.Millisecond))
	if err := rl.Release(ctx, l); err != nil && !errors.As(err, new(*locks.NodeError)) {
		return err
	}
	d.ms[2].Close()
	_, err = rl.Acquire(ctx)
	var qe *locks.QuorumError
	if !errors.As(err, &qe) {
		return fmt.Errorf("redlock with 3 of 5 nodes down: got %v, want a quorum error", err)
	}
	fmt.Fprintf(w, "redlock    n3 down too: %v (locked %d of the %d needed, %d nodes unreachable)\n",
		locks.ErrUnavailable, qe.Locked, qe.Needed, len(qe.Nodes))
	for _, m := range d.ms[:3] {
		if err := m.Restart(); err != nil {
			return err
		}
	}
	return nil
}
