package realrun

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// Config describes one recorded run.
type Config struct {
	// Pattern is a registered pattern's name ("basic", "reentrant", "redlock", a broken
	// variant...). Required.
	Pattern string
	// Nodes are the Redis connections the pattern runs on, one per node
	// (*redis.Client to a redis-server or to miniredis). All clients share
	// them, as goroutines of one process share a connection pool.
	Nodes []locks.Redis
	// Source names where Nodes point, recorded in the history: "redis" or
	// "miniredis".
	Source string
	// Key is the lock key (a name, for Fenced). Default "realrun".
	Key string
	// Store is the protected counter. Default: a MemoryStore, fencing when
	// the pattern claims fencing.
	Store Store
	// Clients is the number of concurrent clients. Default 8.
	Clients int
	// Sections is how many critical sections each client completes. Default 20.
	Sections int
	// TTL is the lock's TTL. Default 10s: no lease expires in a correct run.
	TTL time.Duration
	// Work is the time spent inside each section, between the read and the
	// write. Default 0.
	Work time.Duration
	// Retry is the acquisition retry policy; failed acquisitions are
	// recorded and the client tries again. Default: 3 attempts, 1ms backoff.
	Retry locks.Retry
	// Reenter makes each client of a reentrant pattern (one whose locker
	// has an Owner) acquire a second, nested time around the section, so
	// hold counts are recorded and checked.
	Reenter bool

	// Unlocked is the number of clients that skip the lock entirely: a
	// deliberately broken run.
	Unlocked int
	// IgnoreLoss makes clients write even when their lease has run out
	// (they never look at Lease.Err): a deliberately broken run when the
	// TTL is shorter than Work.
	IgnoreLoss bool
}

func (c *Config) defaults() (pattern.Pattern, error) {
	p, err := pattern.Lookup(c.Pattern)
	if err != nil {
		return p, fmt.Errorf("realrun: Config.Pattern: %w", err)
	}
	if len(c.Nodes) == 0 {
		return p, errors.New("realrun: Config.Nodes is empty")
	}
	if c.Clients < 0 || c.Sections < 0 || c.Unlocked < 0 || c.Work < 0 {
		return p, fmt.Errorf("realrun: Clients (%d), Sections (%d), Unlocked (%d) and Work (%v) must not be negative", c.Clients, c.Sections, c.Unlocked, c.Work)
	}
	c.Key = cmp.Or(c.Key, "realrun")
	c.Clients = cmp.Or(c.Clients, 8)
	c.Sections = cmp.Or(c.Sections, 20)
	c.TTL = cmp.Or(c.TTL, 10*time.Second)
	if c.Retry == (locks.Retry{}) {
		c.Retry = locks.Retry{Attempts: 3, Delay: time.Millisecond, MaxDelay: 4 * time.Millisecond}
	}
	if c.Unlocked > c.Clients {
		return p, fmt.Errorf("realrun: Unlocked (%d) must not exceed Clients (%d)", c.Unlocked, c.Clients)
	}
	if c.Store == nil {
		c.Store = &MemoryStore{Fencing: p.Claims.Fencing}
	}
	return p, nil
}

// Run drives cfg.Clients goroutines through the pattern until each has
// completed cfg.Sections critical sections, and returns the history. An
// error means the run could not be carried out (a bad Config, a Redis
// error, ctx done); a violation is for the checker to find.
func Run(ctx context.Context, cfg Config) (*history.History, error) {
	p, err := cfg.defaults()
	if err != nil {
		return nil, err
	}
	rec := newRecorder()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, cfg.Clients)
	var wg sync.WaitGroup
	for i := range cfg.Clients {
		l, err := p.New(cfg.Nodes, cfg.Key, locks.Options{TTL: cfg.TTL, Retry: cfg.Retry})
		if err != nil {
			return nil, fmt.Errorf("realrun: pattern %s: %w", cfg.Pattern, err)
		}
		c := &client{id: i + 1, cfg: &cfg, l: l, rec: rec, locked: i >= cfg.Unlocked, quorum: len(cfg.Nodes) > 1}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[i] = c.run(ctx); errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	h := rec.history()
	h.Pattern, h.Source = cfg.Pattern, cfg.Source
	h.Scenario = scenario(cfg)
	return h, nil
}

func scenario(c Config) string {
	s := fmt.Sprintf("realrun clients=%d sections=%d ttl=%v work=%v", c.Clients, c.Sections, c.TTL, c.Work)
	if c.Reenter {
		s += " reenter"
	}
	if c.Unlocked > 0 {
		s += fmt.Sprintf(" unlocked=%d", c.Unlocked)
	}
	if c.IgnoreLoss {
		s += " ignore-loss"
	}
	return s
}
