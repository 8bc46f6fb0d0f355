package benchtest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/bench"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// CommandStat is one line of redis-server's INFO commandstats: how often
// a command ran and the microseconds it spent executing (a script's own
// redis.call commands are counted on their own lines as well as inside
// the EVALSHA that ran them).
type CommandStat struct {
	Calls int64
	Usec  int64
}

// ServerCost is what one redis-server spent on a number of uncontended
// cycles of one subject.
type ServerCost struct {
	Cycles     int
	RoundTrips int64                  // requests the client sent
	CPU        time.Duration          // the server process's user + system CPU; 0 if unreadable
	Commands   map[string]CommandStat // by command name, the probes' own INFO excluded
	Sent       map[string]int64       // by command name, what the client sent
}

// PerCycle is d spread over the cycles, in microseconds.
func (c ServerCost) PerCycle(d float64) float64 { return d / float64(c.Cycles) }

// ExecUsec is the execution time of the commands the client sent, summed:
// scripts and plain commands, not the commands scripts ran inside them
// (those are part of their script's time). A command that both the
// client and scripts sent counts for the client's share of its calls.
func (c ServerCost) ExecUsec() float64 {
	var n float64
	for name, st := range c.Commands {
		if sent := c.Sent[name]; sent > 0 && st.Calls > 0 {
			n += float64(st.Usec) * float64(min(sent, st.Calls)) / float64(st.Calls)
		}
	}
	return n
}

// String lists the commands by name: calls and µs per cycle.
func (c ServerCost) String() string {
	names := make([]string, 0, len(c.Commands))
	for n := range c.Commands {
		names = append(names, n)
	}
	slices.Sort(names)
	var sb strings.Builder
	for _, n := range names {
		st := c.Commands[n]
		fmt.Fprintf(&sb, " %s %.2f×(sent %.2f)/%.2fµs", n, c.PerCycle(float64(st.Calls)), c.PerCycle(float64(c.Sent[n])), c.PerCycle(float64(st.Usec)))
	}
	return strings.TrimSpace(sb.String())
}

// ServerCycles runs cycles uncontended acquire+release cycles of s on one
// client against srv, after one warm-up cycle, and returns what the
// server spent on them: its command statistics (reset with CONFIG
// RESETSTAT after the warm-up) and its process's CPU time.
func ServerCycles(tb testing.TB, srv *redistest.Server, s bench.Subject, cycles int) ServerCost {
	tb.Helper()
	tg, err := bench.Remote([]string{srv.Addr})
	if err != nil {
		tb.Fatal(err)
	}
	var rt, retries bench.Counter
	cs, err := tg.Open(1, 4, &rt)
	if err != nil {
		tb.Fatal(err)
	}
	defer bench.CloseAll(cs)
	sent := &sentCounter{n: make(map[string]int64)}
	cs[0].AddHook(sent)
	l, err := s.New(bench.Conn{Nodes: cs, TTL: 10 * time.Second, Retries: &retries}, "benchtest:server:"+s.Name)
	if err != nil {
		tb.Fatal(err)
	}
	admin := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer admin.Close()
	ctx := context.Background()
	cycle := func() {
		h, err := l.Acquire(ctx)
		if err != nil {
			tb.Fatalf("%s: acquire: %v", s.Name, err)
		}
		if err := h.Release(ctx); err != nil {
			tb.Fatalf("%s: release: %v", s.Name, err)
		}
	}
	cycle()
	if err := admin.ConfigResetStat(ctx).Err(); err != nil {
		tb.Fatal(err)
	}
	rt.Reset()
	sent.reset()
	cpu0, _ := processCPU(srv.Pid())
	for range cycles {
		cycle()
	}
	cpu1, ok := processCPU(srv.Pid())
	out := ServerCost{Cycles: cycles, RoundTrips: rt.Load(), Sent: sent.snapshot()}
	if ok {
		out.CPU = cpu1 - cpu0
	}
	info, err := admin.Info(ctx, "commandstats").Result()
	if err != nil {
		tb.Fatal(err)
	}
	if out.Commands, err = ParseCommandStats(info); err != nil {
		tb.Fatal(err)
	}
	delete(out.Commands, "info")
	delete(out.Commands, "config|resetstat")
	return out
}

// ParseCommandStats reads the body of INFO commandstats: lines like
// "cmdstat_evalsha:calls=2,usec=31,usec_per_call=15.50,...".
func ParseCommandStats(info string) (map[string]CommandStat, error) {
	out := make(map[string]CommandStat)
	for line := range strings.Lines(info) {
		line = strings.TrimSpace(line)
		name, fields, ok := strings.Cut(strings.TrimPrefix(line, "cmdstat_"), ":")
		if !ok || !strings.HasPrefix(line, "cmdstat_") {
			continue
		}
		var st CommandStat
		for f := range strings.SplitSeq(fields, ",") {
			k, v, _ := strings.Cut(f, "=")
			var err error
			switch k {
			case "calls":
				st.Calls, err = strconv.ParseInt(v, 10, 64)
			case "usec":
				st.Usec, err = strconv.ParseInt(v, 10, 64)
			}
			if err != nil {
				return nil, fmt.Errorf("benchtest: commandstats line %q: %s: %w", line, k, err)
			}
		}
		out[name] = st
	}
	return out, nil
}

// sentCounter is a go-redis hook that counts the commands a client sends,
// by the name INFO commandstats gives them (lower case, "parent|sub" for
// container commands such as SCRIPT LOAD).
type sentCounter struct {
	mu sync.Mutex
	n  map[string]int64
}

func (c *sentCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (c *sentCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.count(cmd)
		return next(ctx, cmd)
	}
}

func (c *sentCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			c.count(cmd)
		}
		return next(ctx, cmds)
	}
}

func (c *sentCounter) count(cmd redis.Cmder) {
	name := cmd.Name()
	if args := cmd.Args(); len(args) > 1 && (name == "script" || name == "config" || name == "client") {
		name += "|" + strings.ToLower(fmt.Sprint(args[1]))
	}
	c.mu.Lock()
	c.n[name]++
	c.mu.Unlock()
}

func (c *sentCounter) reset() {
	c.mu.Lock()
	clear(c.n)
	c.mu.Unlock()
}

func (c *sentCounter) snapshot() map[string]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.n)
}
