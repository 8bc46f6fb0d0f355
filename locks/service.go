package locks

import "context"

// Service is the production lock service: a reentrant lock (hash {owner:
// count}) kept alive by a watchdog while held, acquired with retries and
// exponential backoff with jitter, honouring the context, and counted in
// Metrics (wait times included).
//
// Unlike the other patterns, a zero Retry.Attempts means "retry until the
// context is done": Acquire blocks like a mutex unless told otherwise (a
// RetryStrategy, if given, decides instead).
//
// With Options.Fencing the key is a name and each new holding carries a
// fencing token (see Reentrant): renewal and fencing in one lock.
type Service struct {
	re *Reentrant
	m  *Metrics
	rn *renewer // the Locker's one renewal loop
}

var _ Locker = (*Service)(nil)

// NewService returns a lock service on key owned by o.Owner (or a fresh
// owner token).
func NewService(r Redis, key string, o Options) (*Service, error) {
	if o.Retry.Attempts == 0 && o.RetryStrategy == nil {
		o.Retry.Attempts = -1
	}
	o.renews = true
	re, err := NewReentrant(r, key, o)
	if err != nil {
		return nil, err
	}
	if err := re.c.resolveRenew(); err != nil {
		return nil, err
	}
	return &Service{re: re, m: o.Metrics, rn: newRenewer(&re.c, o.Metrics)}, nil
}

// Owner is the owner id written into the hash.
func (s *Service) Owner() string { return s.re.owner }

// Metrics returns the counters this service writes to (nil if none).
func (s *Service) Metrics() *Metrics { return s.m }

// Acquire takes or re-enters the lock; a first acquisition hands the
// holding to the Locker's renewal loop (started if it is not running).
func (s *Service) Acquire(ctx context.Context) (*Lease, error) {
	return s.re.c.counted(ctx, func() (*Lease, error) { return s.try(ctx) })
}

func (s *Service) try(ctx context.Context) (*Lease, error) {
	l, fresh, err := s.re.try(ctx)
	if err == nil && fresh {
		re := s.re
		s.rn.add(l, func(ctx context.Context) (bool, error) { return re.extend(ctx, l) })
	}
	return l, err
}

// Release drops one level of holding; the last one ends the holding's
// renewals and frees the lock.
func (s *Service) Release(ctx context.Context, l *Lease) error { return s.re.Release(ctx, l) }
