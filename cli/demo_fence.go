package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/locksim/locksim/locks"
)

// fencedStore is a database row guarded by a fencing token: it accepts a
// write only if its token is at least the highest it has accepted.
type fencedStore struct {
	value   string
	highest int64
}

func (s *fencedStore) write(token int64, v string) error {
	if token < s.highest {
		return fmt.Errorf("rejected: token %d is older than %d", token, s.highest)
	}
	s.highest, s.value = token, v
	return nil
}

func (d *demo) fenced(ctx context.Context, w io.Writer) error {
	ttl := 200 * time.Millisecond
	a, err := locks.NewFenced(d.clients[0], "demo:fenced", d.opts(ttl))
	if err != nil {
		return err
	}
	b, _ := locks.NewFenced(d.clients[0], "demo:fenced", d.opts(ttl))
	store := &fencedStore{}
	la, err := a.Acquire(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "fenced     A acquired with fence token %d, then pauses (GC) past its %v TTL\n", la.Fence, ttl)
	time.Sleep(ttl + 50*time.Millisecond)
	lb, err := b.Acquire(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "fenced     B acquired with fence token %d and writes: %v\n", lb.Fence, errText(store.write(lb.Fence, "B")))
	fmt.Fprintf(w, "fenced     A wakes and writes with token %d: %v (A's lease says: %v)\n",
		la.Fence, errText(store.write(la.Fence, "A")), la.Err())
	fmt.Fprintf(w, "fenced     store holds %q from token %d\n", store.value, store.highest)
	return b.Release(ctx, lb)
}

func errText(err error) string {
	if err == nil {
		return "accepted"
	}
	return err.Error()
}
