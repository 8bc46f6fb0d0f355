package locks

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestDoneClosesOnItsOwnForTheAdvancedLocks: the loss-signal claim of
// Fair, both sides of RWLock and Semaphore rests on the validity timer: a
// holder that never calls Err or Release still sees Done close once the
// validity has run out on its clock, and Err then reports the loss. (The
// conformance suite checks the same of the other patterns.) Over a real
// redis-server in real time, with a TTL of 200ms and a generous wait.
func TestDoneClosesOnItsOwnForTheAdvancedLocks(t *testing.T) {
	e := extReal(t)
	o := extFastOpts()
	o.TTL = 200 * time.Millisecond
	for _, tc := range []struct {
		name    string
		acquire func(name string) (*Lease, error)
	}{
		{"Fair", func(n string) (*Lease, error) { return mustFair(t, e, n, o).Acquire(context.Background()) }},
		{"RWLock/read", func(n string) (*Lease, error) { return mustRW(t, e, n, o).RLock(context.Background()) }},
		{"RWLock/write", func(n string) (*Lease, error) { return mustRW(t, e, n, o).Lock(context.Background()) }},
		{"Semaphore", func(n string) (*Lease, error) { return newSemT(t, e.client(t), n, 2, o).Acquire(context.Background()) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := tc.acquire(extName(t))
			if err != nil {
				t.Fatalf("Acquire = %v", err)
			}
			select {
			case <-l.Done():
			case <-time.After(10 * time.Second):
				t.Fatalf("Done still open 10s after a grant valid for %v (nobody called Err)", o.TTL)
			}
			if err := l.Err(); !errors.Is(err, ErrLockLost) {
				t.Errorf("Err() = %v once Done closed, want ErrLockLost", err)
			}
		})
	}
}

func mustFair(t *testing.T, e *extEnv, name string, o Options) *Fair {
	t.Helper()
	f, err := NewFair(e.client(t), name, o)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func mustRW(t *testing.T, e *extEnv, name string, o Options) *RWLock {
	t.Helper()
	rw, err := NewRWLock(e.client(t), name, o)
	if err != nil {
		t.Fatal(err)
	}
	return rw
}
