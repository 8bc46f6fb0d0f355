package locks

import (
	"context"
	"errors"
	"strings"
	"time"
)

// A Service's waiters are woken instead of polling when its Redis is a
// Blocker: an attempt that finds the lock taken registers the waiter
// (svc_wait.lua, which answers "free" if the lock was released meanwhile),
// and a release that frees the lock wakes the oldest live waiter
// (svc_wake.lua). Both are calls of their own next to the reentrant
// scripts, so Reentrant itself is unchanged. The registry lives beside the
// lock, in its hash slot: for key k with hash tag t (or none: t = k), the
// keys {t}:svc:k:waiters, {t}:svc:k:wseq, {t}:svc:k:q:<token> and the wake
// lists {t}:svc:k:wake:<token>.

// serviceWait names the waiter registry of the Service lock on key; off
// when no key of that form can share key's slot (a key without a hash tag
// whose text has a '}': its waiters poll).
type serviceWait struct {
	waiters, seq, prefix, wake string
	off                        bool
}

func newServiceWait(key string) serviceWait {
	tag := hashTag(key)
	base := "{" + tag + "}:svc:" + key
	return serviceWait{base + ":waiters", base + ":wseq", base + ":q:", base + ":wake:", hashTag(base) != tag}
}

// hashTag is the part of key Redis Cluster hashes: the text between the
// first '{' and the next '}' if it is not empty, else the whole key.
func hashTag(key string) string {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			return key[i+1 : i+1+j]
		}
	}
	return key
}

// acquire is Acquire: retries counted into the metrics, each backoff spent
// blocked on this attempt's wake list when the seam can block.
func (s *Service) acquire(ctx context.Context) (*Lease, error) {
	c := &s.re.c
	token := c.Rand.Token()
	w := waker{key: s.wait.wake + token, clock: c.Clock.Sleep}
	w.b, _ = s.re.r.(Blocker)
	if w.b == nil || s.wait.off {
		return c.counted(ctx, func() (*Lease, error) { return s.try(ctx) })
	}
	free, enlisted := false, false
	wait := func(ctx context.Context, d time.Duration) error {
		if free {
			free = false
			return nil
		}
		return w.wait(ctx, d)
	}
	l, err := wokenLoop(ctx, c, s.m, wait, func() (*Lease, error) {
		l, err := s.try(ctx)
		if errors.Is(err, ErrNotAcquired) {
			free, enlisted = s.enlist(ctx, token), true
		}
		return l, err
	}, func(ctx context.Context) { s.leave(ctx, token) })
	if err == nil && enlisted {
		s.leave(context.WithoutCancel(ctx), token)
	}
	return l, err
}

// enlist registers token as a waiter; it reports whether the lock was free
// by then (try again at once). A failed call registers nothing: the
// waiter's bounded block stands in for the wake-up.
func (s *Service) enlist(ctx context.Context, token string) bool {
	n, err := runInt(ctx, s.re.r, svcWaitScript, []string{s.re.key, s.wait.waiters, s.wait.seq},
		token, s.wait.prefix, s.waitTTL().Milliseconds())
	return err == nil && n == 0
}

// leave drops token's waiter entry and wake list.
func (s *Service) leave(ctx context.Context, token string) {
	_, _ = runInt(ctx, s.re.r, svcLeaveScript, []string{s.wait.waiters}, token, s.wait.prefix, s.wait.wake)
}

// release is Release, then, if it freed the lock, a wake-up of the oldest
// waiter (when the seam can block: the waiters of a seam that cannot are
// not registered either).
func (s *Service) release(ctx context.Context, l *Lease) error {
	err := s.re.Release(ctx, l)
	if _, ok := s.re.r.(Blocker); !ok || s.wait.off || err != nil || !l.h.ended() {
		return err
	}
	_, _ = runInt(ctx, s.re.r, svcWakeScript, []string{s.re.key, s.wait.waiters},
		s.wait.prefix, s.wait.wake, s.re.c.wakeTTL())
	return nil
}

// waitTTL is how long a waiter's entry outlives its last refusal.
func (s *Service) waitTTL() time.Duration {
	return max(s.re.c.TTL, 3*s.re.c.Retry.MaxDelay).Truncate(time.Millisecond)
}
