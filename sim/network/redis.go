package network

import (
	"context"
	"encoding"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/node"
)

// Command is a Redis command on the wire.
type Command struct{ Args []string }

// Describe renders the command for a trace, naming the patterns' scripts
// (EVALSHA release {r}:lock c1-1-0a2b3c) and those named with
// pattern.NameScript instead of printing SHAs and sources; any other
// script shows as script:<the first 8 hex digits of its SHA1>.
func (c Command) Describe() string {
	a := c.Args
	if len(a) >= 2 {
		switch node.Upper(a[0]) {
		case "EVALSHA", "EVALSHA_RO":
			return join(a[0], scriptLabel(a[1]), a[2:])
		case "EVAL", "EVAL_RO":
			return join(a[0], scriptLabel(node.SHA1(a[1])), a[2:])
		case "SCRIPT":
			if len(a) == 3 && strings.EqualFold(a[1], "LOAD") {
				return "SCRIPT LOAD " + scriptLabel(node.SHA1(a[2]))
			}
		}
	}
	if len(a) == 0 {
		return ""
	}
	return node.Upper(a[0]) + " " + strings.Join(a[1:], " ")
}

func join(cmd, script string, rest []string) string {
	if len(rest) > 0 {
		rest = rest[1:] // the key count
	}
	return node.Upper(cmd) + " " + script + " " + strings.Join(rest, " ")
}

func scriptLabel(sha string) string {
	if name := node.ScriptName(sha); name != "" {
		return name
	}
	if name := pattern.ScriptName(strings.ToLower(sha)); name != "" {
		return name
	}
	if len(sha) > 8 {
		sha = sha[:8]
	}
	return "script:" + sha
}

// ReplyMsg is a node's reply on the wire.
type ReplyMsg struct{ node.Reply }

// Describe renders the reply.
func (r ReplyMsg) Describe() string { return r.String() }

// NodeEndpoint serves a node on the network. Each client has one
// connection to it, whose last write a WAIT waits for (see conns).
func NodeEndpoint(nd *node.Node) *Endpoint {
	cs := &conns{nd: nd, last: map[int]write{}}
	return &Endpoint{Name: nd.Name(), Up: nd.Up, Handle: cs.handle, Defer: cs.block, MayDefer: blocking}
}

// blocking reports whether req is a command conns.block may take: WAIT
// or BLPOP.
func blocking(req Message) bool {
	a := req.(Command).Args
	if len(a) == 0 {
		return false
	}
	cmd := node.Upper(a[0]) // as waitFor and Blpop spell it
	return cmd == "WAIT" || cmd == "BLPOP"
}

// RedisClient is one client's connection to one node: locks.Redis.
type RedisClient struct {
	net      *Net
	client   int
	endpoint int
}

var _ locks.Redis = (*RedisClient)(nil)

// NewRedisClient returns client c's locks.Redis for endpoint e.
func (n *Net) NewRedisClient(c, e int) *RedisClient {
	n.Link(c, e)
	return &RedisClient{net: n, client: c, endpoint: e}
}

// Error is a Redis error reply as go-redis reports one (redis.HasErrorPrefix
// recognises it).
type Error string

func (e Error) Error() string { return string(e) }

// RedisError marks Error as a Redis error reply.
func (Error) RedisError() {}

// do runs one command and returns the node's reply or the call's error.
func (r *RedisClient) do(ctx context.Context, args []any) (node.Reply, error) {
	return r.doFor(ctx, args, r.net.Timeout)
}

// doFor is do with its own client-side timeout.
func (r *RedisClient) doFor(ctx context.Context, args []any, timeout time.Duration) (node.Reply, error) {
	strs := make([]string, len(args))
	for i, a := range args {
		s, err := argString(a)
		if err != nil {
			return node.Reply{}, err
		}
		strs[i] = s
	}
	m, err := r.net.CallTimeout(ctx, r.client, r.endpoint, Command{strs}, timeout)
	if err != nil {
		return node.Reply{}, err
	}
	rep := m.(ReplyMsg).Reply
	if rep.IsError() {
		if strings.HasPrefix(rep.Str, "NOSCRIPT") {
			return rep, redis.ErrNoScript
		}
		return rep, Error(rep.Str)
	}
	return rep, nil
}

// argString formats an argument as go-redis writes it on the wire.
func argString(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	case []byte:
		return string(x), nil
	case int:
		return strconv.Itoa(x), nil
	case int32:
		return strconv.FormatInt(int64(x), 10), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case uint64:
		return strconv.FormatUint(x, 10), nil
	case uint32:
		return strconv.FormatUint(uint64(x), 10), nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	case bool:
		if x {
			return "1", nil
		}
		return "0", nil
	case time.Duration:
		return strconv.FormatInt(x.Nanoseconds(), 10), nil
	case time.Time:
		return x.Format(time.RFC3339Nano), nil
	case encoding.BinaryMarshaler:
		b, err := x.MarshalBinary()
		return string(b), err
	}
	return "", fmt.Errorf("redis: can't marshal %T (implement encoding.BinaryMarshaler)", v)
}

// value converts a reply to what go-redis puts in a *Cmd.
func value(r node.Reply) any {
	switch r.Kind {
	case node.KindInt:
		return r.Int
	case node.KindBulk, node.KindStatus:
		return r.Str
	case node.KindError:
		return Error(r.Str)
	case node.KindArray:
		out := make([]any, len(r.Arr))
		for i, x := range r.Arr {
			out[i] = value(x)
		}
		return out
	}
	return nil
}
