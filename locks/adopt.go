package locks

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Lease metadata and hand-off, for the locks whose key holds its holder's
// token as a plain string: Basic, Watchdog (with or without Fencing) and
// Fenced.
//
// With Options.Metadata the key's value is the token, metaSep, then the
// metadata, so anyone can read it (Inspect's Holder.Metadata) and the
// owner checks compare the whole value: a lease's Token is that value.
// Tokens hold no control characters (Options.Token refuses them, fresh
// ones are hex), so the first metaSep ends the token.

// metaSep separates the token from the metadata in a lock key's value.
const metaSep = "\x1f"

// maxMetadata bounds Options.Metadata.
const maxMetadata = 4096

// ErrHandedOff is the reason a lease given away by HandOff ended; it
// matches ErrReleased.
var ErrHandedOff = fmt.Errorf("%w: handed off", ErrReleased)

// checkMetadata checks Options.Metadata for a pattern that takes it.
func (o Options) checkMetadata() error {
	switch {
	case o.Metadata == "":
		return nil
	case !o.metadata:
		return &OptionError{"Metadata", strconv.Quote(o.Metadata), "is not stored by this lock: only Basic, Watchdog and Fenced keep metadata in their key"}
	case len(o.Metadata) > maxMetadata:
		return &OptionError{"Metadata", strconv.Quote(o.Metadata[:32]) + "...", fmt.Sprintf("must be at most %d bytes", maxMetadata)}
	}
	return nil
}

// value is what s writes to its key for token: the token, and the
// metadata if any.
func (s *single) value(token string) string {
	if s.c.Metadata == "" {
		return token
	}
	return token + metaSep + s.c.Metadata
}

// splitValue splits a lock key's value into its token part's metadata
// (the text after the first metaSep) and reports whether it had any.
func splitValue(v string) (meta string, ok bool) {
	_, meta, ok = strings.Cut(v, metaSep)
	return meta, ok
}

// handOff ends l's holding here without touching the key, so that the
// process it is handed to may adopt it by its Token; see Basic.HandOff.
func (s *single) handOff(l *Lease) (string, error) {
	if err := verify(l, s, s.key); err != nil {
		return "", wrap("hand off", s.key, err)
	}
	l.h.letGo()
	s.c.Metrics.released()
	l.spend()
	l.h.end(ErrHandedOff)
	return l.id.token, nil
}

// adopt takes over the holding whose key holds token, setting its TTL
// again; fenceKey is its fence counter ("" if none). A key that holds
// another value or none is ErrNotHeld and nothing is written.
func (s *single) adopt(ctx context.Context, token, fenceKey string) (*Lease, error) {
	if token == "" {
		return nil, wrap("adopt", s.key, fmt.Errorf("%w: empty token", ErrNotHeld))
	}
	m := s.c.Metrics
	m.attempted()
	l, err := s.replicated(ctx, func(ctx context.Context) (*Lease, error) {
		keys := []string{s.key}
		if fenceKey != "" {
			keys = append(keys, fenceKey)
		}
		start := s.c.Clock.Now()
		n, err := runInt(ctx, s.conn(ctx), adoptScript, keys, token, s.c.ttlMS)
		switch {
		case err != nil:
			return nil, wrap("adopt", s.key, err)
		case n == 0:
			return nil, wrap("adopt", s.key, fmt.Errorf("%w: the key does not hold this token", ErrNotHeld))
		case n < 0:
			return nil, wrap("adopt", s.key, fmt.Errorf("%w: the fence counter %s is missing or not a positive integer", ErrPermanent, fenceKey))
		}
		fence := int64(0)
		if fenceKey != "" {
			fence = n
		}
		return s.grant(ctx, start, token, fence)
	})
	if err != nil {
		m.failed()
		return nil, err
	}
	m.acquired()
	return l, nil
}

// HandOff gives l's holding away: l ends here at once (Err is
// ErrHandedOff, which matches ErrReleased; a renewal stops) while the key
// keeps its token and TTL, and the token returned is what another process
// passes to Adopt on a Locker built as this one is (same key, same
// options). Until it does, nobody renews the key: it expires after the
// TTL left. A lease that does not hold here gets ErrNotHeld.
func (b *Basic) HandOff(l *Lease) (string, error) { return b.s.handOff(l) }

// Adopt takes over the holding handed off under token (Lease.Token): if
// the key still holds it, its TTL is set to Options.TTL again and the
// lease returned is this Locker's, released, extended and (for Watchdog)
// renewed as its own. One attempt, no retry: a key that holds another
// value or none is ErrNotHeld and nothing is written. With WaitReplicas
// the adoption is confirmed as a grant is (one that too few replicas
// confirm is given back).
func (b *Basic) Adopt(ctx context.Context, token string) (*Lease, error) {
	return b.s.adopt(ctx, token, "")
}

// HandOff is Basic.HandOff: the renewal stops here.
func (w *Watchdog) HandOff(l *Lease) (string, error) { return w.s.handOff(l) }

// Adopt is Basic.Adopt, and the adopted holding is renewed by this
// Locker's loop; with Fencing the lease carries the holding's fencing
// token.
func (w *Watchdog) Adopt(ctx context.Context, token string) (*Lease, error) {
	l, err := w.s.adopt(ctx, token, w.fence)
	if err != nil {
		return nil, err
	}
	w.rn.add(l, func(ctx context.Context) (bool, error) { return w.s.extend(ctx, l) })
	return l, nil
}

// HandOff is Basic.HandOff.
func (f *Fenced) HandOff(l *Lease) (string, error) { return f.s.handOff(l) }

// Adopt is Basic.Adopt; the lease carries the holding's fencing token
// (the counter, which no grant moves while the key is held).
func (f *Fenced) Adopt(ctx context.Context, token string) (*Lease, error) {
	return f.s.adopt(ctx, token, f.fence)
}
