package model

import (
	"strings"
	"testing"
	"time"
)

func newLock(t *testing.T, spec LockSpec) *Lock {
	t.Helper()
	l, err := NewLock(spec)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestNewLockRejects(t *testing.T) {
	for _, c := range []struct {
		spec LockSpec
		want string
	}{
		{LockSpec{TTL: 0}, "LockSpec.TTL (0s)"},
		{LockSpec{TTL: 999 * time.Microsecond}, "LockSpec.TTL (0s)"},
		{LockSpec{TTL: time.Second, Reentrant: true, Fencing: true}, "LockSpec.Fencing"},
	} {
		_, err := NewLock(c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewLock(%+v) = %v, want an error naming %q", c.spec, err, c.want)
		}
	}
}

func TestLockExpiry(t *testing.T) {
	l := newLock(t, LockSpec{TTL: 100*time.Millisecond + 700*time.Microsecond})
	if g := l.Acquire("a"); !g.OK || g.Count != 1 || g.Fence != 0 {
		t.Fatalf("Acquire(a) = %+v, want granted, count 1, no fence", g)
	}
	if g := l.Acquire("b"); g.OK {
		t.Fatalf("Acquire(b) while held = %+v, want refused", g)
	}
	l.Advance(99 * time.Millisecond)
	if got := l.Remaining(); got != time.Millisecond {
		t.Errorf("Remaining() = %v, want 1ms (TTL truncated to 100ms)", got)
	}
	l.Advance(time.Millisecond)
	if owner, n := l.Holder(); n != 0 {
		t.Errorf("Holder() at expiry = %q ×%d, want free", owner, n)
	}
	if _, ok := l.Release("a"); ok {
		t.Errorf("Release(a) after expiry succeeded, want ErrNotHeld")
	}
	if g := l.Acquire("b"); !g.OK {
		t.Errorf("Acquire(b) after expiry = %+v, want granted", g)
	}
}

func TestLockExtend(t *testing.T) {
	l := newLock(t, LockSpec{TTL: 100 * time.Millisecond})
	l.Acquire("a")
	l.Advance(80 * time.Millisecond)
	if l.Extend("b") {
		t.Errorf("Extend(b) by a non-holder succeeded")
	}
	if !l.Extend("a") {
		t.Fatalf("Extend(a) by the holder refused")
	}
	l.Advance(80 * time.Millisecond)
	if !l.Holds("a") {
		t.Errorf("Holds(a) after an extension and 80ms = false, want true")
	}
	if l.Acquire("a").OK {
		t.Errorf("non-reentrant Acquire(a) by the holder granted, want refused as SET NX refuses it")
	}
	if left, ok := l.Release("a"); !ok || left != 0 {
		t.Errorf("Release(a) = %d, %v, want 0, true", left, ok)
	}
}

func TestLockReentrant(t *testing.T) {
	l := newLock(t, LockSpec{TTL: 100 * time.Millisecond, Reentrant: true})
	l.Acquire("a")
	l.Advance(60 * time.Millisecond)
	if g := l.Acquire("a"); !g.OK || g.Count != 2 {
		t.Fatalf("re-entry = %+v, want count 2", g)
	}
	if got := l.Remaining(); got != 100*time.Millisecond {
		t.Errorf("Remaining() after re-entry = %v, want the TTL reset to 100ms", got)
	}
	l.Advance(60 * time.Millisecond)
	if left, ok := l.Release("a"); !ok || left != 1 {
		t.Fatalf("partial Release(a) = %d, %v, want 1, true", left, ok)
	}
	if got := l.Remaining(); got != 100*time.Millisecond {
		t.Errorf("Remaining() after partial release = %v, want 100ms", got)
	}
	if l.Acquire("b").OK {
		t.Errorf("Acquire(b) while a holds once more = granted")
	}
	if left, ok := l.Release("a"); !ok || left != 0 {
		t.Errorf("last Release(a) = %d, %v, want 0, true", left, ok)
	}
	if g := l.Acquire("b"); !g.OK || g.Count != 1 {
		t.Errorf("Acquire(b) after release = %+v, want count 1", g)
	}
}

func TestLockFencing(t *testing.T) {
	l := newLock(t, LockSpec{TTL: 10 * time.Millisecond, Fencing: true})
	var fences []int64
	for _, owner := range []string{"a", "b", "c"} {
		g := l.Acquire(owner)
		fences = append(fences, g.Fence)
		l.Advance(10 * time.Millisecond) // expire: the counter does not
	}
	if fences[0] != 1 || fences[1] != 2 || fences[2] != 3 {
		t.Errorf("fences across expiries = %v, want [1 2 3]", fences)
	}
	if g := l.Acquire("d"); g.Fence != 4 {
		t.Errorf("fence after expiries = %d, want 4", g.Fence)
	}
	if g := l.Acquire("e"); g.OK || g.Fence != 0 {
		t.Errorf("refused Acquire(e) = %+v, want no fence", g)
	}
	l.Restart(true)
	if !l.Holds("d") || l.Fence() != 4 {
		t.Errorf("after a persistent restart: holds(d)=%v fence=%d, want true, 4", l.Holds("d"), l.Fence())
	}
	l.Restart(false)
	if g := l.Acquire("f"); g.Fence != 1 {
		t.Errorf("fence after a restart without persistence = %d, want 1 (tokens repeat)", g.Fence)
	}
}

func TestLockAdvanceNegativePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("Advance(-1ms) did not panic")
		}
	}()
	newLock(t, LockSpec{TTL: time.Second}).Advance(-time.Millisecond)
}
