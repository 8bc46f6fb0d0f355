package bench_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/bench"
	"github.com/locksim/locksim/bench/benchtest"
	"github.com/locksim/locksim/locks"
)

// serviceWith is a Service subject whose Acquire retries by strategy s.
func serviceWith(name string, s locks.RetryStrategy) bench.Subject {
	return bench.Subject{
		Name: name, Kind: bench.KindPattern, Family: bench.Single, Holders: 1,
		Summary: "Service retrying by " + name,
		New: func(c bench.Conn, key string) (bench.Locker, error) {
			l, err := locks.NewService(c.Nodes[0], key, locks.Options{TTL: c.TTL, RetryStrategy: s, Metrics: new(locks.Metrics)})
			if err != nil {
				return nil, err
			}
			return serviceLocker{l}, nil
		},
	}
}

type serviceLocker struct{ l *locks.Service }

type serviceHeld struct {
	l     *locks.Service
	lease *locks.Lease
}

func (s serviceLocker) Acquire(ctx context.Context) (bench.Held, error) {
	lease, err := s.l.Acquire(ctx)
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, locks.ErrNotAcquired) {
			return nil, bench.Busy(err)
		}
		return nil, err
	}
	return serviceHeld{s.l, lease}, nil
}

func (h serviceHeld) Release(ctx context.Context) error { return h.l.Release(ctx, h.lease) }

// BenchmarkServiceHotKeyBackoff is the hot-key experiment on Service's
// backoff: the floor's tight loop beside Service with its default backoff
// (10ms doubling to 160ms) and with shorter and longer ones, interleaved, at 8, 32
// and 64 clients on one key. It logs, per subject and client count, the
// median over repetitions of its acquisitions/s relative to the floor's
// and of the floor's p99 acquire wait over its own, with 95% intervals.
// Each iteration is one sweep of 6 repetitions of 1s (about 2.5 min): run it
// with -benchtime 1x.
func BenchmarkServiceHotKeyBackoff(b *testing.B) {
	tg := benchtest.Target(b, 1)
	subjects := []bench.Subject{
		bench.FloorSubject(),
		serviceWith("service", nil),
		serviceWith("cap40ms", locks.ExponentialBackoff(10*time.Millisecond, 40*time.Millisecond)),
		serviceWith("cap20ms-base1ms", locks.ExponentialBackoff(time.Millisecond, 20*time.Millisecond)),
		serviceWith("base20ms", locks.ExponentialBackoff(20*time.Millisecond, 160*time.Millisecond)),
		serviceWith("cap320ms", locks.ExponentialBackoff(10*time.Millisecond, 320*time.Millisecond)),
	}
	cfg := bench.Config{Clients: []int{8, 32, 64}, Keys: []bench.KeyMode{bench.Hot}, Families: []bench.Family{bench.Single},
		Timing: bench.Timing{Warmup: 200 * time.Millisecond, Duration: time.Second}, Reps: 6}
	for b.Loop() {
		res, err := bench.Run(context.Background(), tg, subjects, cfg)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("hot key, %d repetitions of %v:\n%s", cfg.Reps, cfg.Duration, hotTable(res))
	}
}

// hotTable pairs every subject's repetitions with the floor's of the same
// cell and repetition.
func hotTable(res *bench.Result) string {
	type cellRep struct {
		clients, rep int
	}
	floor := map[cellRep]bench.Sample{}
	for _, s := range res.Samples {
		if s.Kind == bench.KindFloor {
			floor[cellRep{s.Cell.Clients, s.Rep}] = s
		}
	}
	type key struct {
		subject string
		clients int
	}
	rate, tail := map[key][]float64{}, map[key][]float64{}
	var order []key
	for _, s := range res.Samples {
		f, ok := floor[cellRep{s.Cell.Clients, s.Rep}]
		if !ok || s.Kind == bench.KindFloor || f.PerSecond() == 0 || s.Acquire.Count() == 0 {
			continue
		}
		k := key{s.Subject, s.Cell.Clients}
		if _, seen := rate[k]; !seen {
			order = append(order, k)
		}
		rate[k] = append(rate[k], s.PerSecond()/f.PerSecond())
		tail[k] = append(tail[k], float64(f.Acquire.Quantile(0.99))/float64(s.Acquire.Quantile(0.99)))
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-16s %7s %30s %30s\n", "subject", "clients", "acquisitions/s ÷ floor's", "floor's p99 wait ÷ its")
	for _, k := range order {
		fmt.Fprintf(&sb, "%-16s %7d %30s %30s\n", k.subject, k.clients,
			bench.MedianInterval(rate[k]).String(), bench.MedianInterval(tail[k]).String())
	}
	return sb.String()
}
