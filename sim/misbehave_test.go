package sim

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// misbehaving is a user's lock that goes wrong in Acquire in one of the
// ways the simulator must report rather than hang or crash on.
type misbehaving struct {
	inner locks.Locker
	how   string
	block chan struct{}
}

func (m *misbehaving) Acquire(ctx context.Context) (*locks.Lease, error) {
	switch m.how {
	case "panic":
		panic("my lock is broken")
	case "nil-lease":
		return nil, nil
	case "deadlock":
		<-m.block // a plain channel nobody sends on
	case "wall-sleep":
		time.Sleep(time.Hour) // the wall clock: escapes the simulator
	}
	return m.inner.Acquire(ctx)
}

func (m *misbehaving) Release(ctx context.Context, l *locks.Lease) error {
	return m.inner.Release(ctx, l)
}

func misbehavingPattern(how string) pattern.Pattern {
	return pattern.Pattern{Name: "mine-" + how, Nodes: 1, Claims: pattern.Claims{Mutex: true},
		New: pattern.Single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			if how == "new-panic" {
				panic("constructor is broken")
			}
			b, err := locks.NewBasic(r, k, o)
			return &misbehaving{inner: b, how: how, block: make(chan struct{})}, err
		})}
}

// TestMisbehavingPatternIsReported: a user pattern that panics (in its
// constructor or in Acquire), returns a nil lease with a nil error, blocks
// on a plain channel or sleeps on the wall clock makes Run return an error
// naming the pattern, the seed and the cause: no crash, no hang.
func TestMisbehavingPatternIsReported(t *testing.T) {
	tests := []struct{ how, cause string }{
		{"panic", "panicked: my lock is broken"},
		{"new-panic", "panicked: constructor is broken"},
		{"nil-lease", "returned a nil lease and a nil error"},
		{"deadlock", "blocks outside the simulator's seams"},
		{"wall-sleep", "blocks outside the simulator's seams"},
	}
	for _, tc := range tests {
		t.Run(tc.how, func(t *testing.T) {
			p := misbehavingPattern(tc.how)
			s := builtin(t, "gc-pause", p)
			res, err := Run(Config{Pattern: p, Scenario: s, Seed: 7, StallAfter: 300 * time.Millisecond})
			if err == nil {
				t.Fatalf("Run = %s, want an error", res.Summary())
			}
			for _, want := range []string{p.Name, "seed 7", tc.cause} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("Run error = %v\nwant it to name %q", err, want)
				}
			}
			if n := strings.Count(err.Error(), tc.cause); n != 1 {
				t.Errorf("Run error = %v\nnames its cause %d times, want once", err, n)
			}
			if tc.how == "nil-lease" && !errors.Is(err, ErrNilLease) {
				t.Errorf("Run error = %v, want errors.Is ErrNilLease", err)
			}
		})
	}
}
