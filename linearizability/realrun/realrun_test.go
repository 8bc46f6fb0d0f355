package realrun

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/linearizability"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest/redistest"
	"github.com/redis/go-redis/v9"
)

// backend is a set of Redis nodes, real or embedded.
type backend struct {
	source string
	nodes  []*redis.Client
}

func (b backend) lockers(n int) []locks.Redis {
	out := make([]locks.Redis, n)
	for i := range out {
		out[i] = b.nodes[i]
	}
	return out
}

func miniBackend(t *testing.T, n int, clockTTL bool) backend {
	b := backend{source: "miniredis"}
	for range n {
		m := miniredis.RunT(t)
		m.ClockTTL(clockTTL) // TTLs follow the wall clock, as on a real server
		c := redis.NewClient(&redis.Options{Addr: m.Addr(), ContextTimeoutEnabled: true})
		t.Cleanup(func() { c.Close() })
		b.nodes = append(b.nodes, c)
	}
	return b
}

func redisBackend(t *testing.T, n int) backend {
	return backend{source: "redis", nodes: redistest.Clients(t, redistest.Require(t, n))}
}

func backends(t *testing.T) []backend {
	return []backend{miniBackend(t, 5, true), redisBackend(t, 5)}
}

func record(t *testing.T, cfg Config) *history.History {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	h, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func check(t *testing.T, h *history.History, models linearizability.Models) linearizability.Report {
	t.Helper()
	rep, err := linearizability.Check(h, linearizability.Options{Models: models, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestCorrectPatternsCheckOk: every correct pattern, on miniredis and on
// real redis-server, with the counter in memory and in Redis, records a
// history that checks Ok against all three models, and every section's
// write landed.
func TestCorrectPatternsCheckOk(t *testing.T) {
	for _, b := range backends(t) {
		for _, c := range []struct {
			pattern string
			nodes   int
			reenter bool
		}{
			{"basic", 1, false}, {"reentrant", 1, true}, {"watchdog", 1, false},
			{"service", 1, true}, {"fenced", 1, false}, {"redlock", 5, false},
		} {
			for _, inRedis := range []bool{false, true} {
				name := b.source + "/" + c.pattern + map[bool]string{false: "/memory", true: "/redis-store"}[inRedis]
				t.Run(name, func(t *testing.T) {
					key := "rr-" + c.pattern + map[bool]string{false: "-m", true: "-r"}[inRedis]
					var store Store = &MemoryStore{Fencing: c.pattern == "fenced"}
					if inRedis {
						store = &RedisStore{R: b.nodes[0], Key: "{" + key + "}:counter", Fencing: c.pattern == "fenced"}
					}
					cfg := Config{Pattern: c.pattern, Nodes: b.lockers(c.nodes), Source: b.source, Key: key, Store: store,
						Clients: 6, Sections: 8, Work: 200 * time.Microsecond, Reenter: c.reenter}
					h := record(t, cfg)
					rep := check(t, h, linearizability.AllModels)
					if rep.Verdict != linearizability.Ok {
						t.Fatalf("%s: %s", name, rep)
					}
					assertAllWrote(t, h, store, cfg.Clients*cfg.Sections)
				})
			}
		}
	}
}

func assertAllWrote(t *testing.T, h *history.History, store Store, want int) {
	t.Helper()
	wrote := 0
	for _, o := range h.Ops {
		if o.Kind == history.Section && o.OK {
			wrote++
		}
	}
	final, err := store.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if wrote != want || final != int64(want) {
		t.Errorf("%d sections wrote, counter ends at %d; want %d and %d", wrote, final, want, want)
	}
}

// TestUnlockedClientChecksIllegal: a client that writes without taking the
// lock loses updates, and the counter check says so.
func TestUnlockedClientChecksIllegal(t *testing.T) {
	b := miniBackend(t, 1, true)
	h := record(t, Config{Pattern: "basic", Nodes: b.lockers(1), Source: b.source,
		Clients: 4, Sections: 15, Unlocked: 1, Work: 2 * time.Millisecond})
	rep := check(t, h, linearizability.DefaultModels)
	if rep.Verdict != linearizability.Illegal || rep.Counterexample.Model != "counter" {
		t.Fatalf("a run with an unlocked client: %s", rep)
	}
}

// TestShortTTLChecksIllegal: a Basic lock whose TTL is far shorter than the
// work, used by clients that never look at their lease, lets two holders
// overlap; both the counter and the lock model catch it, on real Redis and
// on miniredis with TTLs on the wall clock.
func TestShortTTLChecksIllegal(t *testing.T) {
	for _, b := range []backend{miniBackend(t, 1, true), redisBackend(t, 1)} {
		t.Run(b.source, func(t *testing.T) {
			h := record(t, Config{Pattern: "basic", Nodes: b.lockers(1), Source: b.source,
				Clients: 4, Sections: 5, TTL: 5 * time.Millisecond, Work: 20 * time.Millisecond, IgnoreLoss: true})
			for _, models := range []linearizability.Models{linearizability.Counter, linearizability.Lock} {
				if rep := check(t, h, models); rep.Verdict != linearizability.Illegal {
					t.Errorf("models %b: %s", models, rep)
				}
			}
			rep := check(t, h, linearizability.DefaultModels)
			var buf bytes.Buffer
			if err := linearizability.WriteViz(&buf, h, rep); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), "lease-lost") {
				t.Errorf("visualisation lacks the lease-lost annotations")
			}
		})
	}
}

// TestBrokenVariantsCheckIllegal: broken variants whose mistake shows
// without any fault are caught by the lock model on a plain run.
// reentrant-nocount's release deletes the key whatever the count, so it
// frees the lock on the inner release; service-seconds sends a sub-second
// TTL as an expiry of 0, which deletes the lock the moment it is taken, so
// the holder's release is refused.
func TestBrokenVariantsCheckIllegal(t *testing.T) {
	b := miniBackend(t, 1, true)
	for _, pattern := range []string{"reentrant-nocount", "service-seconds"} {
		t.Run(pattern, func(t *testing.T) {
			h := record(t, Config{Pattern: pattern, Nodes: b.lockers(1), Source: b.source, Key: pattern,
				Clients: 4, Sections: 10, Reenter: true, TTL: 500 * time.Millisecond, Work: time.Millisecond})
			if lock := check(t, h, linearizability.Lock); lock.Verdict != linearizability.Illegal {
				t.Fatalf("%s, lock model: %s", pattern, lock)
			}
		})
	}
}

// TestHistoryRoundTrip: a recorded history survives the JSON format and
// checks the same.
func TestHistoryRoundTrip(t *testing.T) {
	b := miniBackend(t, 1, false)
	h := record(t, Config{Pattern: "reentrant", Nodes: b.lockers(1), Source: b.source, Clients: 3, Sections: 4, Reenter: true})
	var buf bytes.Buffer
	if err := h.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := history.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Ops) != len(h.Ops) || back.Source != "miniredis" || back.Pattern != "reentrant" {
		t.Errorf("decoded %d ops from %q/%q, want %d from miniredis/reentrant", len(back.Ops), back.Source, back.Pattern, len(h.Ops))
	}
	if rep := check(t, back, linearizability.AllModels); rep.Verdict != linearizability.Ok {
		t.Errorf("decoded history: %s", rep)
	}
	counts := map[int]bool{}
	for _, o := range back.Ops {
		if o.Kind == history.Acquire && o.OK {
			counts[o.Count] = true
		}
	}
	if !counts[1] || !counts[2] {
		t.Errorf("acquire counts %v, want nested acquisitions with counts 1 and 2", counts)
	}
}

func TestConfigErrors(t *testing.T) {
	b := miniBackend(t, 1, false)
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Pattern: "nope", Nodes: b.lockers(1)}, `unknown pattern "nope"`},
		{Config{Pattern: "basic"}, "Config.Nodes is empty"},
		{Config{Pattern: "basic", Nodes: b.lockers(1), Clients: 2, Unlocked: 3}, "Unlocked (3) must not exceed Clients (2)"},
		{Config{Pattern: "basic", Nodes: b.lockers(1), Work: -1}, "must not be negative"},
		{Config{Pattern: "redlock", Nodes: b.lockers(1), TTL: -time.Second}, "TTL"},
	} {
		_, err := Run(context.Background(), c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Run(%+v) = %v, want an error containing %q", c.cfg, err, c.want)
		}
	}
}
