package network

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/sim/node"
)

// conns is a node's view of its clients' connections: the replication
// offset of each one's last write, which WAIT counts acknowledgements of
// (Redis's per-client write offset), and the node's epoch then: a crash
// or failover since has closed that connection.
type conns struct {
	nd   *node.Node
	last map[int]write // client → its connection's last write (read by key only)
}

// write is a connection's last write: the node's epoch and offset after it.
type write struct {
	epoch int
	off   int64
}

// handle executes a command for client c and notes c's last write. A
// command on a connection the node has closed since runs on a new one
// (the client reconnects), which has written nothing yet.
func (cs *conns) handle(c int, req Message) Message {
	if w, ok := cs.last[c]; ok && w.epoch != cs.nd.Epoch() {
		delete(cs.last, c)
	}
	before := cs.nd.Offset()
	r := cs.nd.Exec(req.(Command).Args)
	if off := cs.nd.Offset(); off != before {
		cs.last[c] = write{cs.nd.Epoch(), off}
	}
	return ReplyMsg{r}
}

// wait takes WAIT numreplicas timeout as a blocking command: the node
// answers when enough replicas have client c's last write, or at the
// timeout; the reply then travels back like any other. A WAIT on a
// connection the node closed since that write (a crash or failover) fails
// with a ResetError: a sticky connection does not count another primary's
// acknowledgements.
func (cs *conns) wait(c int, req Message, reply func(Message, error)) bool {
	return waitFor(cs.nd, req, reply, func() (int64, error) {
		w, wrote := cs.last[c]
		if wrote && w.epoch != cs.nd.Epoch() {
			delete(cs.last, c)
			return 0, &ResetError{Endpoint: cs.nd.Name()} // the network names the client
		}
		return w.off, nil
	})
}

// waitFor takes a WAIT request on nd: a syntax error is answered at once;
// otherwise off gives the replication offset the replicas must reach (or
// the error the caller gets instead), and nd answers when enough replicas
// have it or at the timeout. It reports false for any other command.
func waitFor(nd *node.Node, req Message, reply func(Message, error), off func() (int64, error)) bool {
	args := req.(Command).Args
	if len(args) == 0 || node.Upper(args[0]) != "WAIT" {
		return false
	}
	want, timeout, err := parseWait(args)
	if err != nil {
		reply(ReplyMsg{node.Error(err.Error())}, nil)
		return true
	}
	o, err := off()
	if err != nil {
		reply(nil, err)
		return true
	}
	nd.Wait(o, want, timeout, func(r node.Reply) { reply(ReplyMsg{r}, nil) })
	return true
}

// waitError is WAIT's syntax error reply.
type waitError string

func (e waitError) Error() string { return string(e) }

// parseWait reads WAIT's numreplicas and timeout (milliseconds).
func parseWait(args []string) (int, time.Duration, error) {
	if len(args) != 3 {
		return 0, 0, waitError("ERR wrong number of arguments for 'wait' command")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 0 {
		return 0, 0, waitError("ERR value is not an integer or out of range")
	}
	ms, err := strconv.ParseInt(args[2], 10, 64)
	if err != nil || ms < 0 {
		return 0, 0, waitError("ERR timeout is negative")
	}
	return n, time.Duration(ms) * time.Millisecond, nil
}

var _ locks.ReplicaWaiter = (*RedisClient)(nil)

// Session returns the client itself: it already is one connection to one
// node, so a write and the WAIT after it share it.
func (r *RedisClient) Session(context.Context, string) (locks.Session, func(), error) {
	return r, func() {}, nil
}

// Wait sends WAIT numSlaves timeout (whole milliseconds) and returns the
// number of replicas that applied this connection's last write.
func (r *RedisClient) Wait(ctx context.Context, numSlaves int, timeout time.Duration) *redis.IntCmd {
	args := []any{"wait", numSlaves, timeout.Milliseconds()}
	cmd := redis.NewIntCmd(ctx, args...)
	rep, err := r.do(ctx, args)
	if err != nil {
		cmd.SetErr(err)
	} else {
		cmd.SetVal(rep.Int)
	}
	return cmd
}

// block takes the node's blocking commands: WAIT (see wait) and BLPOP,
// parked on the node until a push or its timeout.
func (cs *conns) block(c int, req Message, reply func(Message, error)) bool {
	return cs.wait(c, req, reply) || Blpop(cs.nd, req, reply)
}

// Blpop hands a BLPOP request to nd, which answers at once when a list
// has an element and otherwise parks it until a push, its timeout, or a
// crash (the caller then gets a ClosedError, as when Redis drops the
// connection). It reports false for any other command.
func Blpop(nd *node.Node, req Message, reply func(Message, error)) bool {
	args := req.(Command).Args
	if len(args) == 0 || node.Upper(args[0]) != "BLPOP" {
		return false
	}
	nd.Submit(args, func(r node.Reply, closed bool) {
		if closed {
			reply(nil, &ClosedError{Endpoint: nd.Name()}) // the network names the client
			return
		}
		reply(ReplyMsg{r}, nil)
	})
	return true
}

// WaitOn takes WAIT numreplicas timeout for a node reached outside its own
// endpoint (the old primary of a split brain, whose clients' connections
// it does not track): it counts the replicas that have everything written
// to nd so far, and answers when enough do or at the timeout. It reports
// false for any other command.
func WaitOn(nd *node.Node, req Message, reply func(Message, error)) bool {
	return waitFor(nd, req, reply, func() (int64, error) { return nd.Offset(), nil })
}
