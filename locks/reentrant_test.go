package locks

import (
	"context"
	"errors"
	"testing"
)

// TestReentrantLateRequests: each acquisition has its own entry in the
// hash, so a request that reaches Redis after its call gave up affects
// only the acquisition it belongs to. The late requests are sent here as
// the script calls the lock code would have sent.
func TestReentrantLateRequests(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, key := context.Background(), extName(t)
		o := extFastOpts()
		o.Retry.Attempts = 1
		re := extMust(NewReentrant(e.client(t), key, o))
		other := extMust(NewReentrant(e.client(t), key, o))
		old := extAcquire(t, re)
		if err := re.Release(ctx, old); err != nil {
			t.Fatalf("Release = %v", err)
		}
		cur := extAcquire(t, re)
		// The first release again, as a request that arrived late.
		n, err := runInt(ctx, e.client(t), reentrantReleaseScript, []string{key}, re.owner, re.c.ttlMS, old.id.entry)
		if err != nil || n != -1 {
			t.Fatalf("late release of the earlier holding's entry = %d, %v; want -1 (no such entry)", n, err)
		}
		if _, err := other.Acquire(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Fatalf("another owner's Acquire after the late release = %v, want ErrNotAcquired", err)
		}
		// A grant whose reply the caller never saw: its entry counts until
		// undone, and undoing it leaves the current holding as it was.
		late, _ := re.begin()
		re.settle()
		if n, err := runInt(ctx, e.client(t), reentrantAcquireScript, []string{key}, re.owner, re.c.ttlMS, late, ""); err != nil || n != 2 {
			t.Fatalf("late grant = %d, %v; want count 2", n, err)
		}
		if n, err := runInt(ctx, e.client(t), reentrantAcquireScript, []string{key}, re.owner, re.c.ttlMS, late, ""); err != nil || n != 2 {
			t.Fatalf("the same grant request again = %d, %v; want count 2 (counted once)", n, err)
		}
		re.undo(ctx, late)
		if info := extInspect(t, e.client(t), key, KindReentrant); len(info.Holders) != 1 || info.Holders[0].Count != 1 {
			t.Fatalf("after undoing the late grant, Inspect = %+v; want one holder with count 1", info)
		}
		// A late grant whose undo failed as well is an orphan: the
		// holder's last release removes it too.
		orphan, _ := re.begin()
		re.settle()
		if n, err := runInt(ctx, e.client(t), reentrantAcquireScript, []string{key}, re.owner, re.c.ttlMS, orphan, ""); err != nil || n != 2 {
			t.Fatalf("orphaned grant = %d, %v; want count 2", n, err)
		}
		re.orphans = append(re.orphans, orphan)
		if err := re.Release(ctx, cur); err != nil {
			t.Fatalf("Release of the current holding = %v", err)
		}
		if err := cur.Err(); !errors.Is(err, ErrReleased) {
			t.Errorf("after the last release beside an orphan, lease.Err() = %v, want ErrReleased", err)
		}
		if l, err := other.Acquire(ctx); err != nil {
			t.Fatalf("another owner's Acquire after the last release = %v", err)
		} else {
			_ = other.Release(ctx, l)
		}
	})
}
