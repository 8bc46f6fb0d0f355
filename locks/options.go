package locks

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/locksim/locksim/clock"
	pf "github.com/locksim/locksim/internal/pitfall"
)

// Options configure every pattern; each pattern reads the fields it needs
// and ignores the rest.
type Options struct {
	// TTL is the lease time sent to Redis, in whole milliseconds (anything
	// finer is truncated). Required; at least 1ms.
	TTL time.Duration
	// Clock is the time seam. Default clock.Real{}.
	Clock clock.Clock
	// Rand issues owner tokens and retry jitter. Default CryptoRand{}.
	Rand Rand
	// Retry is the acquisition retry policy. The zero value tries once.
	Retry Retry
	// RetryStrategy, if set, decides the waits between acquisition
	// attempts and when to give up, in place of Retry's attempts and
	// backoff (see RetryStrategy; NoRetry, ConstantBackoff, LinearBackoff,
	// ExponentialBackoff, LimitRetry). Retry.Attempts must then be 0.
	// Retry.Delay and Retry.MaxDelay still size the queue entries of Fair
	// and RWLock (WaitTTL, IntentTTL): a wait longer than Retry.MaxDelay
	// there may let a waiter's entry expire between polls, losing its
	// place.
	RetryStrategy RetryStrategy
	// DriftFactor is the fraction of the TTL subtracted from the validity
	// to allow for clock drift between client and server (plus 2ms).
	// 0 means the default, 0.01. Must be in [0, 0.5), and leave the TTL
	// some validity: TTL > TTL × DriftFactor + 2ms.
	DriftFactor float64
	// RenewEvery is the watchdog's renewal period (Watchdog, Service, a
	// Redlock from NewRedlockWatchdog).
	// Default TTL/3. Must be positive and less than the TTL; the patterns
	// that do not renew refuse it (it could not take effect).
	RenewEvery time.Duration
	// Owner identifies the owner of a reentrant lock (Reentrant, Service).
	// Default: a fresh token per locker value. The other patterns refuse
	// it (they issue a fresh token per acquisition).
	Owner string
	// Token is a caller-chosen owner token for Basic and Watchdog, written
	// instead of a fresh token per acquisition, so that a process that
	// restarts with the same Token can take back (Acquire) or release the
	// lock its earlier run held: Acquire takes the lock if it is free or
	// already holds Token. A Token names one process: two live lockers with
	// the same Token are not excluded from each other. It must not begin
	// with '@' nor hold control characters, and is at most 512 bytes. The
	// other patterns refuse it (Reentrant and Service have Owner).
	Token string
	// Metadata is a small value (at most 4096 bytes) that Basic, Watchdog
	// and Fenced store with the lock, after the token in the key's value,
	// for others to read (Inspect's Holder.Metadata) while it is held; the
	// lease carries it too (Lease.Metadata). The other patterns refuse it.
	Metadata string
	// Fencing makes Watchdog, Reentrant, Service and Fair issue a fencing token
	// with every new holding (Lease.Fence), from a never-expiring counter
	// incremented in the same script as the grant, as Fenced does. The
	// key passed to the constructor is then a name: the lock lives at
	// FencedLockKey(name) and the counter at FencedCounterKey(name), one
	// hash tag, so the script runs on Redis Cluster. A re-entry keeps its
	// holding's token. Fair fences too, from FairFenceKey(name) in its
	// slot, incremented in the grant's script. The other patterns ignore it
	// (Fenced always fences).
	Fencing bool
	// NodeTimeout bounds each Redlock node request. Default TTL/10, at
	// least 1ms.
	NodeTimeout time.Duration
	// Metrics, if set, receives the pattern's counters (every pattern).
	Metrics *Metrics
	// WaitReplicas makes the single-node patterns (Basic, Watchdog,
	// Fenced, Reentrant, Service) send WAIT WaitReplicas WaitTimeout after
	// every grant and every renewal or extension, on the connection that
	// wrote it, and accept the write only if at least that many replicas
	// acknowledged it: a grant confirmed by fewer is given back and fails
	// with ErrNotReplicated (retried under Retry), a renewal confirmed by
	// fewer loses the lease. A failover to a replica that acknowledged
	// then keeps the lock. The seam must pin a connection (see
	// ReplicaWaiter). 0 (default) does not wait; Redlock, Fair, RWLock and
	// Semaphore refuse it.
	WaitReplicas int
	// WaitTimeout is WAIT's timeout, in whole milliseconds. Default TTL/10
	// (at least 1ms); must be less than the validity the TTL leaves. Set
	// only with WaitReplicas.
	WaitTimeout time.Duration

	// AllowContextTimeoutDisabled accepts a go-redis client whose options
	// leave ContextTimeoutEnabled false, which every constructor refuses
	// otherwise: go-redis then ignores context deadlines on the socket,
	// so Acquire's context, NodeTimeout and the renewals' bounds do not
	// bound a call to a hung server (it waits out the client's
	// ReadTimeout, 3s by default, and retries). See ctxtimeout.go.
	AllowContextTimeoutDisabled bool

	pitfall *pf.Pitfall // a deliberate mistake (pitfall.With); nil for none
	// renews is set by the constructors of the patterns that renew, before
	// they build on another: only they take RenewEvery.
	renews bool
	// metadata is set by the constructors of the patterns that store
	// Options.Metadata: only they take it.
	metadata bool
}

// Retry is an acquisition retry policy: exponential backoff with jitter.
type Retry struct {
	// Attempts is the maximum number of attempts. 0 or 1 tries once; a
	// negative value retries until the context is done. A waiter that
	// learns when the holding it met runs out makes one more poll then,
	// once per Acquire (see waitexpiry.go).
	Attempts int
	// Delay is the first backoff; default 10ms.
	Delay time.Duration
	// MaxDelay caps the backoff; default 16 × Delay.
	MaxDelay time.Duration
}

type config struct {
	Options
	ttlMS   int64
	pit     *pitfall      // Options.pitfall, compiled; nil for none
	retryBy RetryStrategy // the resolved strategy (see strategy), built once
}

func (o Options) resolve() (config, error) {
	c := config{Options: o}
	if o.TTL < time.Millisecond {
		return c, &OptionError{"TTL", o.TTL, "must be at least 1ms"}
	}
	c.TTL = o.TTL.Truncate(time.Millisecond)
	c.ttlMS = c.TTL.Milliseconds()
	if o.RenewEvery != 0 && !o.renews {
		return c, &OptionError{"RenewEvery", o.RenewEvery, "has no effect: this lock does not renew (only Watchdog, Service, NewRedlockWatchdog, NewRWLockWatchdog and NewFairWatchdog do)"}
	}
	if err := o.checkMetadata(); err != nil {
		return c, err
	}
	if c.Clock == nil {
		c.Clock = clock.Real{}
	}
	if c.Rand == nil {
		c.Rand = CryptoRand{}
	}
	if o.DriftFactor < 0 || o.DriftFactor >= maxDriftFactor {
		return c, &OptionError{"DriftFactor", o.DriftFactor, "must be in [0, 0.5): an allowance of half the TTL or more leaves the holder less validity than the server keeps the key for a second holder to wait out"}
	}
	if c.DriftFactor == 0 {
		c.DriftFactor = 0.01
	}
	if v := c.validity(0); v <= 0 {
		return c, &OptionError{"TTL", c.TTL, fmt.Sprintf("leaves no validity after the drift allowance (TTL × DriftFactor + %v = %v): every grant would be given back", minDrift, c.TTL-v)}
	}
	if err := c.resolveRetry(); err != nil {
		return c, err
	}
	c.retryBy = c.strategy()
	if o.NodeTimeout < 0 {
		return c, &OptionError{"NodeTimeout", o.NodeTimeout, "must not be negative"}
	}
	if c.NodeTimeout == 0 {
		c.NodeTimeout = max(c.TTL/10, time.Millisecond)
	}
	if err := c.resolveWait(); err != nil {
		return c, err
	}
	c.withPitfall()
	return c, nil
}

// resolveRenew checks and defaults RenewEvery, for the patterns that renew.
func (c *config) resolveRenew() error {
	if c.RenewEvery < 0 {
		return &OptionError{"RenewEvery", c.RenewEvery, "must be positive"}
	}
	if c.RenewEvery == 0 {
		c.RenewEvery = max(c.TTL/3, time.Millisecond)
	}
	if c.RenewEvery >= c.TTL {
		return &OptionError{"RenewEvery", c.RenewEvery, "must be less than TTL (" + c.TTL.String() + ")"}
	}
	if c.pit != nil && c.pit.RenewEvery != nil {
		c.RenewEvery = c.pit.RenewEvery(c.TTL)
	}
	return nil
}

func (c *config) resolveRetry() error {
	r := &c.Retry
	if r.Delay < 0 {
		return &OptionError{"Retry.Delay", r.Delay, "must not be negative"}
	}
	if r.MaxDelay < 0 {
		return &OptionError{"Retry.MaxDelay", r.MaxDelay, "must not be negative"}
	}
	if r.Delay == 0 {
		r.Delay = 10 * time.Millisecond
	}
	if r.MaxDelay == 0 {
		r.MaxDelay = 16 * r.Delay
	}
	if r.MaxDelay < r.Delay {
		return &OptionError{"Retry.MaxDelay", r.MaxDelay, "must be at least Retry.Delay (" + r.Delay.String() + ")"}
	}
	if c.RetryStrategy != nil {
		return checkStrategy(c.RetryStrategy, r.Attempts)
	}
	return nil
}

// maxDriftFactor bounds DriftFactor (exclusive).
const maxDriftFactor = 0.5

// noOwner refuses an Owner on a pattern that has none (each acquisition
// there gets a fresh token), naming the pattern.
func (o Options) noOwner(pattern string) error {
	if pattern != "Basic" && pattern != "Watchdog" && pattern != "Fenced" {
		if err := o.noWait(pattern); err != nil {
			return err
		}
	}
	if o.Owner != "" {
		return &OptionError{"Owner", strconv.Quote(o.Owner), "is not used by " + pattern + ": only Reentrant and Service have an owner (the others issue a fresh token per acquisition)"}
	}
	if pattern != "Basic" && pattern != "Watchdog" {
		return o.noToken(pattern)
	}
	return nil
}

// maxToken bounds the length of Options.Token.
const maxToken = 512

// checkToken checks Token for a pattern that takes it.
func (o Options) checkToken() error {
	t := o.Token
	switch {
	case len(t) > maxToken:
		return &OptionError{"Token", strconv.Quote(t), fmt.Sprintf("must be at most %d bytes", maxToken)}
	case strings.HasPrefix(t, "@"):
		return &OptionError{"Token", strconv.Quote(t), "must not begin with '@' (reserved for the reentrant hash's entries)"}
	case strings.IndexFunc(t, unicode.IsControl) >= 0:
		return &OptionError{"Token", strconv.Quote(t), "must not hold control characters"}
	}
	return nil
}

// noToken refuses a Token on a pattern that does not take one.
func (o Options) noToken(pattern string) error {
	if o.Token != "" {
		return &OptionError{"Token", strconv.Quote(o.Token), "is not used by " + pattern + ": only Basic and Watchdog take a caller-chosen token (Reentrant and Service have Owner)"}
	}
	return nil
}
