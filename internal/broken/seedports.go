package broken

// What the two seed ports share: their configuration, their errors and
// the holdings of the leases they issued. The variants built on a pattern
// need none of it.

import (
	"sync"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockkit"
)

// conf is what the seed ports are configured by: its key and the Options
// resolved by package locks (defaults, checks, validity, the retry loop),
// so that they configure and retry as the patterns do.
type conf struct {
	key string
	lockkit.Config
}

// newConf resolves o for a seed port on key, as the patterns that do not
// renew resolve it.
func newConf(key string, o locks.Options) (conf, error) {
	if key == "" {
		return conf{}, &locks.OptionError{Field: "key", Value: `""`, Rule: "must not be empty"}
	}
	c, err := lockkit.Resolve(o)
	return conf{key: key, Config: c}, err
}

func keyErr(op, key string, err error) error { return &locks.KeyError{Key: key, Op: op, Err: err} }

// released turns the reply of a single-key release script (n keys
// deleted, or err) into Release's result and ends l's holding accordingly;
// an error leaves the holding as it was (the outcome is unknown).
func (hs *holdings) released(l *locks.Lease, key string, n int64, err error) error {
	switch {
	case err != nil:
		return keyErr("release", key, err)
	case n == 0:
		hs.end(l, locks.ErrLockLost)
		return keyErr("release", key, locks.ErrNotHeld)
	default:
		hs.end(l, locks.ErrReleased)
		return nil
	}
}

// holdings maps the leases a seed port issued to their control side.
type holdings struct {
	mu sync.Mutex
	m  map[*locks.Lease]*lockkit.Holding
}

func (hs *holdings) add(l *locks.Lease, g *lockkit.Holding) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.m == nil {
		hs.m = map[*locks.Lease]*lockkit.Holding{}
	}
	hs.m[l] = g
}

// end ends l's holding with err, if l is one of these.
func (hs *holdings) end(l *locks.Lease, err error) {
	hs.mu.Lock()
	g, ok := hs.m[l]
	delete(hs.m, l)
	hs.mu.Unlock()
	if ok {
		g.End(err)
	}
}
