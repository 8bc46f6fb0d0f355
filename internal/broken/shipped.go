package broken

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// Variants of bug classes that lock libraries have shipped and later
// fixed, beside the seeds' pitfalls: basic-shared-token,
// redlock-shared-token and watchdog-zombie-renewal.

// sharedToken is the bug class "a fixed owner token shared by every
// client": the token a lock writes as its owner is not unique to the
// acquisition but the same for every process (a constant, the host or
// service name, a process id that every container shares, a random source
// seeded alike everywhere). Every owner check then passes for everyone: a
// late or losing client's cleanup release deletes the key of the client
// that now holds the lock, and a third client is granted it beside the
// holder. It wraps the Rand of a correct pattern, so that the variant
// differs from the pattern by its tokens alone; retry jitter still comes
// from the wrapped Rand.
type sharedToken struct {
	locks.Rand
	token string
}

// Token returns the shared token, whatever the acquisition: the bug.
func (s sharedToken) Token() string { return s.token }

// withSharedToken gives o a Rand whose tokens are all one.
func withSharedToken(o locks.Options) locks.Options {
	inner := o.Rand
	if inner == nil {
		inner = locks.CryptoRand{}
	}
	o.Rand = sharedToken{Rand: inner, token: "owner"}
	return o
}

// NewBasicSharedToken returns the basic-shared-token variant: a correct
// Basic lock whose every client writes the same owner token.
func NewBasicSharedToken(r locks.Redis, key string, o locks.Options) (locks.Locker, error) {
	return locks.NewBasic(r, key, withSharedToken(o))
}

// NewRedlockSharedToken returns the redlock-shared-token variant: a
// correct Redlock whose every client writes the same owner token, so that
// a client that missed the quorum and releases on every node (its
// cleanup) deletes the winner's keys too.
func NewRedlockSharedToken(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error) {
	return locks.NewRedlock(nodes, key, withSharedToken(o))
}

// retakeScript is the renewal of watchdog-zombie-renewal: it extends the
// key if it is ours and takes it again if it is gone (meant to heal a
// lapse between renewals). ARGV[1] token, ARGV[2] TTL ms; 1 renewed, 0
// another owner holds the key.
var retakeScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`)

// WatchdogZombie is the bug class "a watchdog whose renewal outlives the
// release": Release deletes the key but does not stop the renewal loop
// (the cancel of the renewal task is lost on one path, the loop checks a
// flag that Release never sets), and the renewal takes the key again when
// it finds it gone. After the first release the orphaned renewal re-creates
// the key under a token no client uses and keeps it alive for ever: the
// lock stays held after its holder is gone, every Acquire is refused, and
// nobody learns why. Mutual exclusion holds — nobody holds at all — so only
// a progress check sees it. The correct Watchdog stops the renewal before
// it releases.
type WatchdogZombie struct {
	r     locks.Redis
	b     conf
	hs    holdings
	every time.Duration
}

var _ locks.Locker = (*WatchdogZombie)(nil)

// NewWatchdogZombie returns the watchdog-zombie-renewal variant on key,
// renewing every o.RenewEvery (default TTL/3), as Watchdog does.
func NewWatchdogZombie(r locks.Redis, key string, o locks.Options) (*WatchdogZombie, error) {
	if r == nil {
		return nil, &locks.OptionError{Field: "Redis", Value: "nil", Rule: "must be set"}
	}
	b, err := newRenewingConf(key, o)
	if err != nil {
		return nil, err
	}
	return &WatchdogZombie{r: r, b: b, every: b.RenewEvery()}, nil
}

// Acquire takes the lock with SET NX PX and starts the renewal loop, which
// nothing but a refused renewal stops.
func (w *WatchdogZombie) Acquire(ctx context.Context) (*locks.Lease, error) {
	return w.b.Retry(ctx, func() (*locks.Lease, error) {
		token, start, err := setNX(ctx, w.r, w.b)
		if err != nil {
			return nil, err
		}
		l, g := locks.NewLease(w.b.Clock(), w.b.key, token, 0, 1, start, w.b.Validity(0))
		w.hs.add(l, g, nil) // the pitfall: Release has no way to stop the loop
		w.b.Clock().Go(func() { w.watch(context.Background(), l) })
		return l, nil
	})
}

// watch renews l every interval until a renewal is refused, released or
// not.
func (w *WatchdogZombie) watch(ctx context.Context, l *locks.Lease) {
	for {
		if w.b.Clock().Sleep(ctx, w.every) != nil {
			return
		}
		start := w.b.Clock().Now()
		rctx, cancel := w.b.Clock().WithTimeout(ctx, w.b.TTL())
		n, err := runInt(rctx, w.r, retakeScript, []string{w.b.key}, l.Token, w.b.TTLms())
		cancel()
		switch {
		case err == nil && n == 1:
			w.hs.renewed(l, start, w.b.Validity(0))
		case err == nil:
			w.hs.end(l, fmt.Errorf("%w: renewal refused", locks.ErrLockLost))
			return
		}
	}
}

// Release deletes the key if it is still ours — and leaves the renewal
// running.
func (w *WatchdogZombie) Release(ctx context.Context, l *locks.Lease) error {
	if l == nil {
		return keyErr("release", w.b.key, locks.ErrNotHeld)
	}
	n, err := runInt(ctx, w.r, releaseScript, []string{w.b.key}, l.Token)
	return w.hs.released(l, w.b.key, n, err)
}

// The variants of bug classes lock libraries shipped.
func init() {
	pattern.Register(pattern.Pattern{Name: "basic-shared-token", Nodes: 1, Broken: true, Claims: claimsOf("basic"),
		Pitfall: "one owner token shared by every client: a late holder's release deletes the next holder's key",
		Summary: "basic SET NX PX + owner-checked release, every client writing the same token",
		New:     pattern.Single(NewBasicSharedToken)})
	pattern.Register(pattern.Pattern{Name: "redlock-shared-token", Nodes: 5, Broken: true, Claims: claimsOf("redlock"),
		Pitfall: "one owner token shared by every client: a loser's release on every node deletes the winner's keys",
		Summary: "Redlock, every client writing the same token",
		New:     NewRedlockSharedToken})
	pattern.Register(pattern.Pattern{Name: "watchdog-zombie-renewal", Nodes: 1, Broken: true, Claims: claimsOf("watchdog"),
		Pitfall: "the renewal outlives the release and re-takes a free key: the lock stays held after its holder is gone",
		Summary: "SET NX PX renewed every TTL/3 by a loop Release does not stop, which re-creates a missing key",
		New:     pattern.Single(NewWatchdogZombie)})
}
