package lockstest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

// bound is how long a call that must return "promptly" may take in real
// time before the suite calls it stuck; generous, as this is no benchmark.
const bound = 10 * time.Second

// checkCancelled: a cancelled context ends Acquire with context.Canceled,
// whether it was cancelled before the call or while it waited.
func checkCancelled(r *run) {
	c1, c2 := r.client(1), r.client(2, retryForever)
	l1 := c1.acquire("")
	ctx, cancel := context.WithCancel(r.ctx)
	cancel()
	if err := r.acquireWithin(c2, ctx); !errors.Is(err, context.Canceled) {
		r.t.Errorf("Acquire(client 2) with a cancelled context = %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithCancel(r.ctx)
	defer cancel()
	time.AfterFunc(20*time.Millisecond, cancel)
	if err := r.acquireWithin(c2, ctx); !errors.Is(err, context.Canceled) {
		r.t.Errorf("Acquire(client 2) cancelled while waiting = %v, want context.Canceled", err)
	}
	c1.release(l1, "")
}

// checkDeadline: retrying without limit, Acquire gives up at the context's
// deadline with an error that says both why (taken) and when (deadline).
// The holder's TTL outlasts the wait however slow the machine; the wait is
// long enough for an attempt or two to complete under load.
func checkDeadline(r *run) {
	d := 500 * time.Millisecond
	c1 := r.client(1, func(o *locks.Options) { o.TTL = max(o.TTL, 10*d) })
	c2 := r.client(2, retryForever)
	l1 := c1.acquire("")
	ctx, cancel := context.WithTimeout(r.ctx, d)
	defer cancel()
	err := r.acquireWithin(c2, ctx)
	if ctx.Err() == nil {
		r.t.Errorf("Acquire(client 2) with Attempts -1 returned %v before its %v deadline", err, d)
	}
	if !errors.Is(err, r.taken) || !errors.Is(err, context.DeadlineExceeded) {
		r.t.Errorf("Acquire(client 2) with a %v deadline = %v, want %v and context.DeadlineExceeded", d, err, r.taken)
	}
	c1.release(l1, "")
}

// acquireWithin runs c's Acquire with ctx and returns its error, failing
// the test if it has not returned within bound.
func (r *run) acquireWithin(c *client, ctx context.Context) error {
	r.t.Helper()
	done := make(chan error, 1)
	go func() {
		l, err := c.l.Acquire(ctx)
		if l != nil {
			_ = c.l.Release(context.Background(), l)
			err = fmt.Errorf("got a lease (fence %d)", l.Fence)
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(bound):
		r.t.Fatalf("Acquire(client %d) still running %v after its context ended", c.n, bound)
		return nil
	}
}

// optionCase is one invalid configuration and what its error must name.
type optionCase struct {
	name    string
	applies bool
	nodes   int
	set     func(*locks.Options)
	field   string
	value   string
}

// checkOptions: invalid options fail construction with a *locks.OptionError
// naming the field and the value.
func checkOptions(r *run) {
	ttl, n, caps := r.ttl(), r.env.nodes(), r.env.Caps
	cases := []optionCase{
		{"TTL 0", true, n, func(o *locks.Options) { o.TTL = 0 }, "TTL", "0s"},
		{"DriftFactor 1", true, n, func(o *locks.Options) { o.DriftFactor = 1 }, "DriftFactor", "1"},
		{"DriftFactor 0.5", true, n, func(o *locks.Options) { o.DriftFactor = 0.5 }, "DriftFactor", "0.5"},
		{"TTL 2ms (no validity after the drift allowance)", true, n, func(o *locks.Options) { o.TTL = 2 * time.Millisecond }, "TTL", "2ms"},
		{"TTL 1ms", true, n, func(o *locks.Options) { o.TTL = time.Millisecond }, "TTL", "1ms"},
		{"Owner on a pattern without one", !caps.Reentrant, n, func(o *locks.Options) { o.Owner = "me" }, "Owner", `"me"`},
		{"RenewEvery = TTL", caps.Watchdog, n, func(o *locks.Options) { o.RenewEvery = ttl }, "RenewEvery", ttl.String()},
		{"RenewEvery > TTL", caps.Watchdog, n, func(o *locks.Options) { o.RenewEvery = 2 * ttl }, "RenewEvery", (2 * ttl).String()},
		{"0 nodes", caps.Redlock, 0, nil, "nodes", "0"},
		{"2 nodes", caps.Redlock && r.env.Backend.Nodes() >= 2, 2, nil, "nodes", "2"},
	}
	for _, c := range cases {
		if c.applies {
			r.checkOption(c)
		}
	}
	r.checkNilClient()
}

// checkNilClient: a typed-nil *redis.Client is refused at construction
// (it would panic on the first call), naming the field.
func (r *run) checkNilClient() {
	r.t.Helper()
	conns := make([]locks.Redis, r.env.nodes())
	for i := range conns {
		conns[i] = (*redis.Client)(nil)
	}
	l, err := r.env.New(conns, r.key, r.options())
	var oe *locks.OptionError
	if !errors.As(err, &oe) {
		r.t.Errorf("New(typed-nil *redis.Client) = %v, %v; want a *locks.OptionError", l, err)
		return
	}
	if !strings.Contains(err.Error(), "*redis.Client(nil)") {
		r.t.Errorf("New(typed-nil *redis.Client) error %q: want it to name the value *redis.Client(nil)", err)
	}
}

func (r *run) checkOption(c optionCase) {
	r.t.Helper()
	var set []func(*locks.Options)
	if c.set != nil {
		set = append(set, c.set)
	}
	conns := r.env.Backend.Connect(r.t)[:c.nodes]
	l, err := r.env.New(conns, r.key, r.options(set...))
	var oe *locks.OptionError
	if !errors.As(err, &oe) {
		r.t.Errorf("New(%s) = %v, %v; want a *locks.OptionError", c.name, l, err)
		return
	}
	if oe.Field != c.field {
		r.t.Errorf("New(%s): OptionError.Field = %q, want %q", c.name, oe.Field, c.field)
	}
	if msg := err.Error(); !strings.Contains(msg, c.field) || !strings.Contains(msg, "("+c.value+")") {
		r.t.Errorf("New(%s) error %q: want it to name %s and its value (%s)", c.name, msg, c.field, c.value)
	}
}
