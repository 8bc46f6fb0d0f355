package network

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/sim/node"
)

// The eval commands' names, boxed once: an any made of a string
// variable is an allocation per call.
var (
	evalName, evalshaName, evalROName, evalshaROName any = "eval", "evalsha", "eval_ro", "evalsha_ro"
)

func (r *RedisClient) eval(ctx context.Context, name any, payload string, keys []string, args []any) *redis.Cmd {
	cmdArgs := make([]any, 0, 3+len(keys)+len(args))
	cmdArgs = append(cmdArgs, name, payload, len(keys))
	for _, k := range keys {
		cmdArgs = append(cmdArgs, k)
	}
	cmdArgs = append(cmdArgs, args...)
	cmd := redis.NewCmd(ctx, cmdArgs...)
	rep, err := r.do(ctx, cmdArgs)
	switch {
	case err != nil:
		cmd.SetErr(err)
	case rep.IsNil():
		cmd.SetErr(redis.Nil)
	default:
		cmd.SetVal(value(rep))
	}
	return cmd
}

// Eval runs a script by source.
func (r *RedisClient) Eval(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	return r.eval(ctx, evalName, script, keys, args)
}

// EvalSha runs a cached script; a node without it answers NOSCRIPT.
func (r *RedisClient) EvalSha(ctx context.Context, sha1 string, keys []string, args ...any) *redis.Cmd {
	return r.eval(ctx, evalshaName, sha1, keys, args)
}

// EvalRO is Eval for read-only scripts.
func (r *RedisClient) EvalRO(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	return r.eval(ctx, evalROName, script, keys, args)
}

// EvalShaRO is EvalSha for read-only scripts.
func (r *RedisClient) EvalShaRO(ctx context.Context, sha1 string, keys []string, args ...any) *redis.Cmd {
	return r.eval(ctx, evalshaROName, sha1, keys, args)
}

// ScriptExists asks which scripts the node has cached.
func (r *RedisClient) ScriptExists(ctx context.Context, hashes ...string) *redis.BoolSliceCmd {
	args := []any{"script", "exists"}
	for _, h := range hashes {
		args = append(args, h)
	}
	cmd := redis.NewBoolSliceCmd(ctx, args...)
	rep, err := r.do(ctx, args)
	if err != nil {
		cmd.SetErr(err)
		return cmd
	}
	out := make([]bool, len(rep.Arr))
	for i, x := range rep.Arr {
		out[i] = x.Int == 1
	}
	cmd.SetVal(out)
	return cmd
}

// ScriptLoad caches a script on the node and returns its SHA1.
func (r *RedisClient) ScriptLoad(ctx context.Context, script string) *redis.StringCmd {
	args := []any{"script", "load", script}
	cmd := redis.NewStringCmd(ctx, args...)
	rep, err := r.do(ctx, args)
	if err != nil {
		cmd.SetErr(err)
	} else {
		cmd.SetVal(rep.Str)
	}
	return cmd
}

// SetNX is go-redis's SetNX: SET key value PX ms NX (EX for whole seconds,
// plain NX for no expiration); false with no error when the key exists.
func (r *RedisClient) SetNX(ctx context.Context, key string, value any, expiration time.Duration) *redis.BoolCmd {
	var args []any
	switch {
	case expiration == 0:
		args = []any{"set", key, value, "nx"}
	case expiration == redis.KeepTTL:
		args = []any{"set", key, value, "keepttl", "nx"}
	case expiration < time.Second || expiration%time.Second != 0:
		args = []any{"set", key, value, "px", formatMs(expiration), "nx"}
	default:
		args = []any{"set", key, value, "ex", int64(expiration / time.Second), "nx"}
	}
	cmd := redis.NewBoolCmd(ctx, args...)
	rep, err := r.do(ctx, args)
	switch {
	case err != nil:
		cmd.SetErr(err)
	default:
		cmd.SetVal(rep.Kind == node.KindStatus && rep.Str == "OK")
	}
	return cmd
}

// formatMs is go-redis's: sub-millisecond positive durations become 1ms.
func formatMs(d time.Duration) int64 {
	if d > 0 && d < time.Millisecond {
		return 1
	}
	return int64(d / time.Millisecond)
}
