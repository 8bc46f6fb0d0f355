package network

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

// The blocking side of the simulated client (locks.Blocker): BLPOP as
// go-redis sends it, parked on the node until a push or its timeout (see
// node.Submit), its reply delayed and lost like any other. As in go-redis,
// BLPop's read deadline is the block plus 10s while Do's is
// the client's plain timeout; a cancelled context ends the call at once.

var _ locks.Blocker = (*RedisClient)(nil)

// Do runs one command given as its arguments.
func (r *RedisClient) Do(ctx context.Context, args ...any) *redis.Cmd {
	cmd := redis.NewCmd(ctx, args...)
	rep, err := r.do(ctx, args)
	setCmd(cmd, rep.IsNil(), value(rep), err)
	return cmd
}

// BLPop blocks for timeout (whole seconds, as go-redis sends it) for an
// element of one of keys.
func (r *RedisClient) BLPop(ctx context.Context, timeout time.Duration, keys ...string) *redis.StringSliceCmd {
	args := make([]any, 0, len(keys)+2)
	args = append(args, "blpop")
	for _, k := range keys {
		args = append(args, k)
	}
	args = append(args, strconv.FormatInt(int64(timeout/time.Second), 10))
	cmd := redis.NewStringSliceCmd(ctx, args...)
	rep, err := r.doFor(ctx, args, timeout+10*time.Second)
	switch {
	case err != nil:
		cmd.SetErr(err)
	case rep.IsNil():
		cmd.SetErr(redis.Nil)
	default:
		out := make([]string, len(rep.Arr))
		for i, x := range rep.Arr {
			out[i] = x.Str
		}
		cmd.SetVal(out)
	}
	return cmd
}

// setCmd gives cmd its result: the call's error, redis.Nil for a nil
// reply, or the value.
func setCmd(cmd *redis.Cmd, isNil bool, v any, err error) {
	switch {
	case err != nil:
		cmd.SetErr(err)
	case isNil:
		cmd.SetErr(redis.Nil)
	default:
		cmd.SetVal(v)
	}
}
