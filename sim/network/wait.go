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
// (Redis's per-client write offset).
type conns struct {
	nd   *node.Node
	last map[int]int64 // client → offset after its last write (read by key only)
}

// handle executes a command for client c and notes c's last write.
func (cs *conns) handle(c int, req Message) Message {
	before := cs.nd.Offset()
	r := cs.nd.Exec(req.(Command).Args)
	if off := cs.nd.Offset(); off != before {
		cs.last[c] = off
	}
	return ReplyMsg{r}
}

// wait takes WAIT numreplicas timeout as a blocking command: the node
// answers when enough replicas have client c's last write, or at the
// timeout; the reply then travels back like any other.
func (cs *conns) wait(c int, req Message, reply func(Message)) bool {
	args := req.(Command).Args
	if len(args) == 0 || node.Upper(args[0]) != "WAIT" {
		return false
	}
	want, timeout, err := parseWait(args)
	if err != nil {
		reply(ReplyMsg{node.Error(err.Error())})
		return true
	}
	cs.nd.Wait(cs.last[c], want, timeout, func(r node.Reply) { reply(ReplyMsg{r}) })
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
