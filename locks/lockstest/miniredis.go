package lockstest

import (
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/locks"
)

// Epoch is where the manual clocks of this package start.
var Epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Miniredis is a Backend of embedded miniredis servers over loopback TCP.
// Time is manual: lockers run on a ManualClock, and Advance moves it and
// every node's TTLs (FastForward) together, step by step, so a watchdog
// renews at exactly the manual times it asks for and no test waits for
// real time to pass.
//
// A node goes down with Close and comes back with Restart, on the same
// address and with its data (the downtime does not count against TTLs).
// Connections are TCP, not miniredis's in-process Dial, which would
// silently restart a closed server.
type Miniredis struct {
	servers []*miniredis.Miniredis
	addrs   []string
	down    []bool
	clk     *ManualClock
}

var _ Backend = (*Miniredis)(nil)

// StartMiniredis starts n miniredis servers, closed when t ends.
func StartMiniredis(t testing.TB, n int) *Miniredis {
	t.Helper()
	b := &Miniredis{}
	for range n {
		m := miniredis.RunT(t)
		b.servers = append(b.servers, m)
		b.addrs = append(b.addrs, m.Addr())
		b.down = append(b.down, false)
	}
	b.clk = NewManualClock(Epoch, b.fastForward)
	t.Cleanup(b.clk.Stop)
	return b
}

func (b *Miniredis) fastForward(d time.Duration) {
	for _, m := range b.servers {
		m.FastForward(d)
	}
}

// Server returns node i's miniredis.
func (b *Miniredis) Server(i int) *miniredis.Miniredis { return b.servers[i] }

// Nodes is the number of servers.
func (b *Miniredis) Nodes() int { return len(b.servers) }

// Connect opens fresh TCP connections to every server.
func (b *Miniredis) Connect(t testing.TB) []locks.Redis {
	out := make([]locks.Redis, len(b.addrs))
	for i, addr := range b.addrs {
		out[i] = dial(t, addr)
	}
	return out
}

// Admin returns a connection to server i.
func (b *Miniredis) Admin(t testing.TB, node int) *redis.Client { return dial(t, b.addrs[node]) }

// Clock is the manual clock Advance moves.
func (b *Miniredis) Clock() clock.Clock { return b.clk }

// ManualClock is the same clock, with its Advance.
func (b *Miniredis) ManualClock() *ManualClock { return b.clk }

// TTL is one second: manual time costs nothing to wait out.
func (b *Miniredis) TTL() time.Duration { return time.Second }

// Advance moves the manual clock and every server's TTLs d forward.
func (b *Miniredis) Advance(t testing.TB, d time.Duration) {
	t.Helper()
	if err := b.clk.Advance(d); err != nil {
		t.Fatalf("Advance(%v): %v", d, err)
	}
}

// Down closes server i; its data stays.
func (b *Miniredis) Down(t testing.TB, node int) {
	b.servers[node].Close()
	b.down[node] = true
}

// Up restarts server i on its address.
func (b *Miniredis) Up(t testing.TB, node int) {
	t.Helper()
	if !b.down[node] {
		return
	}
	if err := b.servers[node].Restart(); err != nil {
		t.Fatalf("restart miniredis node %d on %s: %v", node, b.addrs[node], err)
	}
	b.down[node] = false
}

// Reset flushes every server.
func (b *Miniredis) Reset(t testing.TB) {
	for _, m := range b.servers {
		m.FlushAll()
	}
}

// dial connects to addr with the options the suite relies on: a refused
// dial fails at once (one attempt, no command retries), and context
// deadlines bound every command.
func dial(t testing.TB, addr string) *redis.Client {
	c := redis.NewClient(&redis.Options{
		Addr:                  addr,
		DialTimeout:           time.Second,
		DialerRetries:         1,
		MaxRetries:            -1,
		ContextTimeoutEnabled: true,
		DisableIdentity:       true,
		MaintNotificationsConfig: &maintnotifications.Config{
			Mode: maintnotifications.ModeDisabled,
		},
	})
	t.Cleanup(func() { _ = c.Close() })
	return c
}
