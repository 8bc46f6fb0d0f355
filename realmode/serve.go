package realmode

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/fault"
)

// serve answers client i's messages until it exits or the run ends.
func (c *coord) serve(i int, ready chan<- int) {
	defer c.serving.Done()
	p := c.procs[i]
	first := true
	for {
		var m Msg
		err := p.c.recvMsg(&m)
		if err == nil && first && m.Kind != msgReady && m.Kind != msgFatal {
			err = fmt.Errorf("%w: message kind %q before ready: a client's first message is ready (or fatal)", errProtocol, m.Kind)
		}
		if errors.Is(err, errProtocol) {
			c.fail(i, err.Error())
			p.kill()
			return
		}
		if err != nil {
			if !c.isStopping() {
				c.fail(i, "exited: "+p.failure())
			}
			return
		}
		c.saw(m.Kind)
		if first && m.Kind == msgReady {
			first = false
			ready <- i
			select {
			case <-c.started:
			case <-c.early:
			}
		}
		if notice(m.Kind) {
			c.notice(i, m)
			continue
		}
		r, err := c.handle(i, m)
		if err != nil {
			c.fail(i, err.Error())
			p.kill()
			return
		}
		if err := p.c.send(r); err != nil {
			if !c.isStopping() {
				c.fail(i, "exited: "+p.failure())
			}
			return
		}
	}
}

// notice takes a client's notice: a lease it saw lost, a stall of its
// heartbeat. Notices are not answered.
func (c *coord) notice(i int, m Msg) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopping {
		return
	}
	c.procs[i].heard()
	switch m.Kind {
	case msgLost:
		c.lossNotice(m.Lease, m.At)
	case msgStall:
		end := c.trueOf(m.At)
		c.stalls = append(c.stalls, stall{client: i, from: end - int64(m.Gap), to: end})
	}
}

// saw counts a message of kind, for the conformance check.
func (c *coord) saw(kind string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = map[string]int{}
	}
	c.seen[kind]++
}

func (c *coord) isStopping() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopping
}

// handle executes one message at one instant of true time, and hands
// the client any step of its wall clock due.
func (c *coord) handle(i int, m Msg) (Reply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopping {
		return Reply{Stop: true}, nil
	}
	r, err := c.execute(i, m)
	st := c.state[i]
	r.Jump, st.jump = st.jump, 0
	return r, err
}

// execute is handle's dispatch (the caller holds c.mu).
func (c *coord) execute(i int, m Msg) (Reply, error) {
	c.procs[i].heard()
	st := c.state[i]
	if err := c.ownLease(i, m); err != nil {
		return Reply{}, err
	}
	switch m.Kind {
	case msgReady:
	case msgInvoke:
		st.pending = &history.Op{Client: i + 1, Kind: m.Op, Key: sim.Key, Call: c.now()}
		switch m.Op {
		case history.Release:
			st.relID = m.Lease
			c.lossReleasing(m.Lease)
			c.pr.free(i, c.now())
		case history.Acquire:
			c.pr.want(i, c.now())
		}
	case msgReturn:
		return c.returned(i, m)
	case msgPoint:
		return c.point(i, fault.Point(m.Point)), nil
	case msgRead:
		return c.read(i, m), nil
	case msgWrite:
		return c.write(i, m), nil
	case msgCheck:
		c.lossAct(m.Lease)
		c.judge.Check(m.Lease, m.OK)
	case msgFatal:
		return Reply{}, fmt.Errorf("could not start its lock: %s", m.Err)
	default:
		return Reply{}, fmt.Errorf("%w: message kind %q", errProtocol, m.Kind)
	}
	return Reply{}, nil
}

// ownLease refuses a message that names a lease the coordinator did not
// grant to client i (the caller holds c.mu).
func (c *coord) ownLease(i int, m Msg) error {
	switch m.Kind {
	case msgRead, msgWrite, msgCheck:
	case msgInvoke:
		if m.Op != history.Release {
			return nil
		}
	default:
		return nil
	}
	if !slices.Contains(c.state[i].leases, m.Lease) {
		return fmt.Errorf("%w: %s message: field \"lease\": %d is not a lease granted to %s (granted: %v)",
			errProtocol, m.Kind, m.Lease, c.state[i].name, c.state[i].leases)
	}
	return nil
}

// returned completes the lock call client i invoked.
func (c *coord) returned(i int, m Msg) (Reply, error) {
	st := c.state[i]
	o := st.pending
	if o == nil || o.Kind != m.Op {
		return Reply{}, fmt.Errorf("%w: a %s returned that was not invoked", errProtocol, m.Op)
	}
	st.pending = nil
	o.Return, o.OK, o.Err, o.Token, o.Mode = c.now(), m.OK, m.Err, m.Token, m.Mode
	if m.Unknown {
		o.Return = history.Unknown
	}
	var r Reply
	if o.Kind == history.Acquire {
		if m.OK {
			o.Fence, o.Count = m.Fence, m.Count
			r.Lease = c.judge.Grant(i, o.Call, m.Fence, m.Mode == history.ModeRead)
			st.leases = append(st.leases, r.Lease)
			c.grants++
			c.grantLoss(i, r.Lease, m)
			c.pr.hold(c, i, c.now())
			st.stats.Acquisitions++
			st.waits = append(st.waits, time.Duration(c.now()-o.Call).Round(time.Microsecond))
			st.lastAcq = c.now()
		} else {
			st.stats.Failures++
		}
	}
	if o.Kind == history.Release {
		c.lossReleased(st.relID, m.OK, m.Err)
	}
	c.record(*o)
	return r, nil
}

// point fires the faults waiting for client i's n-th arrival at p and
// hands it any pending slowness.
func (c *coord) point(i int, p fault.Point) Reply {
	st := c.state[i]
	st.points[p]++
	for _, f := range c.trig[trigKey{st.name, p, st.points[p]}] {
		if after := c.sc.Faults[f].When.After; after > 0 {
			c.applyAfter(f, after)
			continue
		}
		c.apply(f)
	}
	d := st.extra
	st.extra = 0
	return Reply{Slow: d}
}

func (c *coord) read(i int, m Msg) Reply {
	c.lossAct(m.Lease)
	now := c.now()
	v := c.judge.Read(i, m.Lease, m.Fence)
	c.record(history.Op{Client: i + 1, Kind: history.Read, Key: sim.StoreKey, Call: now, Return: now, OK: true, Value: v, Fence: m.Fence})
	c.state[i].readCall = now
	return Reply{Value: v}
}

func (c *coord) write(i int, m Msg) Reply {
	c.lossAct(m.Lease)
	now := c.now()
	ok := c.judge.Write(i, m.Lease, m.Fence, m.Read, m.Value)
	w := history.Op{Client: i + 1, Kind: history.Write, Key: sim.StoreKey, Call: now, Return: now, OK: ok, Value: m.Value, Fence: m.Fence}
	c.record(w)
	sec := w
	sec.Kind, sec.Call, sec.Value = history.Section, c.state[i].readCall, m.Read
	c.record(sec)
	return Reply{Accepted: ok}
}
