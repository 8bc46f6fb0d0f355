package realrun

import (
	"context"
	"errors"
	"fmt"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/locks"
)

// client is one goroutine of a run, with its own locker.
type client struct {
	id     int
	cfg    *Config
	l      locks.Locker
	rec    *recorder
	locked bool // false: a broken client that skips the lock
	quorum bool // the pattern is a quorum lock (Redlock)
}

// owned is implemented by reentrant lockers, whose owner id is the token
// the lock model tracks.
type owned interface{ Owner() string }

func (c *client) run(ctx context.Context) error {
	for done := 0; done < c.cfg.Sections; {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("realrun: client %d after %d sections: %w", c.id, done, err)
		}
		if !c.locked {
			if err := c.section(ctx, nil); err != nil {
				return err
			}
			done++
			continue
		}
		ok, err := c.holding(ctx)
		if err != nil {
			return err
		}
		if ok {
			done++
		}
	}
	return nil
}

// holding acquires, runs one section (nested in a re-entry when asked)
// and releases. It reports false when the lock was not acquired.
func (c *client) holding(ctx context.Context) (bool, error) {
	lease, err := c.acquire(ctx)
	if lease == nil || err != nil {
		return false, err
	}
	if o, ok := c.l.(owned); ok && c.cfg.Reenter {
		inner, err := c.acquire(ctx)
		if err != nil {
			return false, err
		}
		if inner != nil {
			if err := c.release(ctx, inner, o.Owner()); err != nil {
				return false, err
			}
		}
	}
	if err := c.section(ctx, lease); err != nil {
		return false, err
	}
	return true, c.release(ctx, lease, c.owner(lease))
}

func (c *client) owner(lease *locks.Lease) string {
	if o, ok := c.l.(owned); ok {
		return o.Owner()
	}
	if lease != nil {
		return lease.Token
	}
	return ""
}

// acquire records one Acquire. It returns a nil lease when the lock was
// not acquired, and an error when the outcome is unknown (the op is then
// recorded as such and the run stops).
func (c *client) acquire(ctx context.Context) (*locks.Lease, error) {
	o := history.Op{Client: c.id, Kind: history.Acquire, Key: c.cfg.Key, Call: c.rec.now()}
	lease, err := c.l.Acquire(ctx)
	o.Return, o.Token = c.rec.now(), c.owner(lease)
	switch {
	case err == nil:
		o.OK, o.Fence, o.Count = true, lease.Fence, lease.Count
	case errors.Is(err, locks.ErrNotAcquired) || errors.Is(err, locks.ErrQuorum) || errors.Is(err, locks.ErrUnavailable):
		if c.quorum {
			// A quorum lock may refuse a free lock (votes split between
			// contenders), which the lock model does not allow: a refusal
			// tells nothing about the lock's state.
			return nil, nil
		}
		o.Err = err.Error()
	default:
		o.Return, o.Err = history.Unknown, err.Error()
		c.rec.op(o)
		return nil, fmt.Errorf("realrun: client %d: acquire: %w", c.id, err)
	}
	c.rec.op(o)
	return lease, nil
}

// release records one Release of lease by owner.
func (c *client) release(ctx context.Context, lease *locks.Lease, owner string) error {
	o := history.Op{Client: c.id, Kind: history.Release, Key: c.cfg.Key, Token: owner, Call: c.rec.now()}
	err := c.l.Release(ctx, lease)
	o.Return, o.OK = c.rec.now(), err == nil
	switch {
	case err == nil:
	case errors.Is(err, locks.ErrNotHeld):
		o.Err = err.Error()
		c.lost(o.Return, "release refused: the lease no longer held the lock")
	default:
		o.Return, o.Err = history.Unknown, err.Error()
		c.rec.op(o)
		return fmt.Errorf("realrun: client %d: release: %w", c.id, err)
	}
	c.rec.op(o)
	return nil
}

func (c *client) lost(at int64, detail string) {
	c.rec.event(history.Event{At: at, Kind: "lease-lost", Target: fmt.Sprintf("c%d", c.id), Detail: detail})
}

// section reads the counter, works, and writes the value read plus one
// (unless the lease was lost meanwhile and the client checks), recording
// the read, the write and the whole section.
func (c *client) section(ctx context.Context, lease *locks.Lease) error {
	var fence int64
	if lease != nil {
		fence = lease.Fence
	}
	rd := history.Op{Client: c.id, Kind: history.Read, Key: c.cfg.Key, Call: c.rec.now()}
	v, err := c.cfg.Store.Read(ctx)
	if err != nil {
		return fmt.Errorf("realrun: client %d: read: %w", c.id, err)
	}
	rd.Return, rd.Value, rd.OK = c.rec.now(), v, true
	c.rec.op(rd)
	sec := history.Op{Client: c.id, Kind: history.Section, Key: c.cfg.Key, Call: rd.Call, Value: v, Fence: fence}
	if err := sleep(ctx, c.cfg.Work); err != nil {
		return fmt.Errorf("realrun: client %d: work: %w", c.id, err)
	}
	if lease != nil && !c.cfg.IgnoreLoss && lease.Err() != nil {
		sec.Return, sec.Err = c.rec.now(), "lease lost before the write: "+lease.Err().Error()
		c.rec.op(sec)
		c.lost(sec.Return, "the holder saw its lease was lost and did not write")
		return nil
	}
	return c.write(ctx, sec, fence, v+1)
}

func (c *client) write(ctx context.Context, sec history.Op, fence, value int64) error {
	wr := history.Op{Client: c.id, Kind: history.Write, Key: c.cfg.Key, Fence: fence, Value: value, Call: c.rec.now()}
	ok, err := c.cfg.Store.Write(ctx, fence, value)
	wr.Return, wr.OK = c.rec.now(), ok
	if err != nil {
		wr.Return, sec.Return, wr.Err = history.Unknown, history.Unknown, err.Error()
		c.rec.op(wr)
		c.rec.op(sec)
		return fmt.Errorf("realrun: client %d: write: %w", c.id, err)
	}
	if !ok {
		wr.Err = fmt.Sprintf("store rejected fencing token %d", fence)
	}
	sec.Return, sec.OK = wr.Return, ok
	c.rec.op(wr)
	c.rec.op(sec)
	return nil
}
