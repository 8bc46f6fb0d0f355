package lockstest

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/locks"
)

// checkWatchdogOutlives: a held lock outlives several TTLs.
func checkWatchdogOutlives(r *run) {
	c1, c2 := r.client(1), r.client(2)
	l1 := c1.acquire("")
	for i := 1; i <= 4; i++ {
		r.advance(r.ttl())
		c2.wantTaken(fmt.Sprintf(" after %d×TTL", i))
		if err := l1.Err(); err != nil {
			r.t.Fatalf("lease.Err() = %v after %d×TTL held under the watchdog, want nil", err, i)
		}
	}
	c1.release(l1, " after 4×TTL")
	l2 := c2.acquire(" after client 1 released")
	c2.release(l2, "")
}

// checkWatchdogStops: Release stops the renewal; its goroutine ends once
// the Locker has been idle a moment (a renewal loop may linger, within a
// TTL, for the Locker's next holding) and nothing renews or re-creates the
// key afterwards.
func checkWatchdogStops(r *run) {
	c1, c2 := r.client(1), r.client(2)
	before := locksGoroutines()
	l1 := c1.acquire("")
	var started []string // the stacks of the goroutines Acquire started
	if !clocktest.Eventually(5*time.Second, func() bool { started = newGoroutines(before); return len(started) > 0 }) {
		r.t.Errorf("no goroutine of package locks started within 5s of Acquire: no watchdog runs")
	}
	c1.release(l1, "")
	r.advance(r.ttl())
	var left []string
	if !clocktest.Eventually(10*time.Second, func() bool { left = stillRunning(started); return len(left) == 0 }) {
		r.t.Errorf("%d goroutine(s) started by Acquire still run 10s after Release; the first:\n%s", len(left), left[0])
	}
	r.advance(r.ttl())
	if d := r.pttl(l1.Key); d != -2 {
		r.t.Errorf("PTTL(%q) = %v 2×TTL after Release, want -2 (no key): something renewed or re-created it", l1.Key, d)
	}
	l2 := c2.acquire(" after client 1 released")
	c2.release(l2, "")
}

// checkWatchdogLoss: when a renewal is refused (the key vanished, or
// another client took the lock meanwhile) the holder is told: Done closes
// and Err is ErrLockLost.
func checkWatchdogLoss(r *run) {
	for _, takeover := range []bool{false, true} {
		what := "key deleted"
		if takeover {
			what = "key deleted, lock taken by client 2"
		}
		c1, c2, c3 := r.client(1), r.client(2), r.client(3)
		if r.env.Caps.Resets && !takeover {
			what = "key replaced by another owner's"
		}
		l1 := c1.acquire(" (" + what + ")")
		if r.env.Caps.Resets && !takeover {
			r.plantForeign(l1.Key)
		} else {
			r.deleteKey(l1.Key)
		}
		var l2 *locks.Lease
		if takeover {
			l2 = c2.acquire(" after client 1's key was deleted")
		}
		r.advance(r.ttl())
		select {
		case <-l1.Done():
		case <-time.After(10 * time.Second):
			r.t.Fatalf("%s: lease.Done() not closed 10s after a refused renewal was due", what)
		}
		if err := l1.Err(); !errors.Is(err, locks.ErrLockLost) {
			r.t.Errorf("%s: lease.Err() = %v after the loss, want ErrLockLost", what, err)
		}
		c1.wantReleaseNotHeld(l1, " of a lost lease ("+what+")")
		if takeover {
			c3.wantTaken(" while client 2 holds the lock")
			c2.release(l2, "")
		}
	}
}

// plantForeign sets key to another owner's token on every node the pattern
// uses, behind the lockers' backs.
func (r *run) plantForeign(key string) {
	r.t.Helper()
	for i := range r.env.nodes() {
		if err := r.env.Backend.Admin(r.t, i).Set(r.ctx, key, "another-owner", r.ttl()).Err(); err != nil {
			r.t.Fatalf("SET %q on node %d: %v", key, i, err)
		}
	}
}

// locksFrame marks a stack frame of package locks (not of lockstest, whose
// path continues with "/").
const locksFrame = "github.com/locksim/locksim/locks."

// goroutines returns the stack of every goroutine, by goroutine id.
func goroutines() map[string]string {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := map[string]string{}
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		out[goroutineID(g)] = g
	}
	return out
}

// goroutineID reads the id from a stack's header, "goroutine 47 [select]:".
func goroutineID(stack string) string {
	id, _, _ := strings.Cut(strings.TrimPrefix(stack, "goroutine "), " ")
	return id
}

// locksGoroutines returns the goroutines running, or started by, code of
// package locks.
func locksGoroutines() map[string]string {
	out := map[string]string{}
	for id, g := range goroutines() {
		if strings.Contains(g, locksFrame) {
			out[id] = g
		}
	}
	return out
}

// newGoroutines returns the stacks of the goroutines of package locks that
// are not in before.
func newGoroutines(before map[string]string) []string {
	var out []string
	for id, g := range locksGoroutines() {
		if _, old := before[id]; !old {
			out = append(out, g)
		}
	}
	slices.Sort(out)
	return out
}

// stillRunning returns those of stacks whose goroutine is still alive
// (goroutine ids are never reused).
func stillRunning(stacks []string) []string {
	all := goroutines()
	var out []string
	for _, g := range stacks {
		if _, ok := all[goroutineID(g)]; ok {
			out = append(out, g)
		}
	}
	return out
}

// checkWatchdogCutTTL: a key whose TTL is cut behind the holder's back
// (PEXPIRE by an operator or another program) is restored by the next
// renewal while it still holds the holder's token — the owner check
// passes, so the holding goes on and no one else can take the lock; a cut
// the key does not outlive until that renewal is a loss, as a deleted key
// is: the renewal is refused, Done closes, Err is ErrLockLost and another
// client can take the lock (Caps.Resets too: the key is gone on every
// node, a majority, and an extension sets a vanished key again only where
// a majority still holds the token).
func checkWatchdogCutTTL(r *run) {
	c1, c2 := r.client(1), r.client(2)
	l1 := c1.acquire(" (TTL cut to 3/4 TTL)")
	cut := r.ttl() * 3 / 4 // the next renewal is due within TTL/3: 5/12 TTL to spare for a loaded machine
	r.cutTTL(l1.Key, cut)
	// Past the cut's expiry, and half way between two renewals (every
	// TTL/3), so that the next cut does not meet a renewal in flight.
	r.advance(r.ttl() * 5 / 6)
	if err := l1.Err(); err != nil {
		r.t.Fatalf("lease.Err() = %v 5/6 TTL after its key's TTL was cut to %v, want nil: the renewal restores it", err, cut)
	}
	if d := r.pttl(l1.Key); d <= 0 {
		r.t.Fatalf("PTTL(%q) = %v 5/6 TTL after the cut to %v, want > 0: no renewal restored it", l1.Key, d, cut)
	}
	c2.wantTaken(" after the holder's renewal restored the cut TTL")

	r.cutTTL(l1.Key, time.Millisecond) // gone before the next renewal
	r.advance(r.ttl())
	select {
	case <-l1.Done():
	case <-time.After(10 * time.Second):
		r.t.Fatalf("lease.Done() not closed 10s after a renewal was due on a key that expired on a cut TTL")
	}
	if err := l1.Err(); !errors.Is(err, locks.ErrLockLost) {
		r.t.Errorf("lease.Err() = %v after its key expired on a cut TTL, want ErrLockLost", err)
	}
	l2 := c2.acquire(" after client 1's key expired on a cut TTL")
	c2.release(l2, "")
}

// cutTTL sets key's TTL to d on every node the pattern uses, behind the
// lockers' backs.
func (r *run) cutTTL(key string, d time.Duration) {
	r.t.Helper()
	for i := range r.env.nodes() {
		if ok, err := r.env.Backend.Admin(r.t, i).PExpire(r.ctx, key, d).Result(); err != nil || !ok {
			r.t.Fatalf("PEXPIRE %q %v on node %d = %v, %v; want true", key, d, i, ok, err)
		}
	}
}
