package node

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// The redis table scripts see, and the conversions between Lua values and
// replies, following Redis's rules: integer → number, bulk → string, nil →
// false, status → {ok=…}, error → {err=…} (raised by call, returned by
// pcall), array → table; and back: number → integer (truncated), string →
// bulk, true → 1, false and nil → nil, {err=…} → error, {ok=…} → status,
// table → array up to its first nil.

// redisLib builds the redis table.
func (e *luaEngine) redisLib() *lua.LTable {
	L := e.L
	t := L.NewTable()
	fns := map[string]lua.LGFunction{
		"call":               func(L *lua.LState) int { return e.redisCall(L, true) },
		"pcall":              func(L *lua.LState) int { return e.redisCall(L, false) },
		"error_reply":        func(L *lua.LState) int { return e.replyTable(L, "err") },
		"status_reply":       func(L *lua.LState) int { return e.replyTable(L, "ok") },
		"sha1hex":            e.sha1hex,
		"log":                func(L *lua.LState) int { return 0 },
		"replicate_commands": func(L *lua.LState) int { L.Push(lua.LTrue); return 1 },
		"set_repl":           func(L *lua.LState) int { return 0 },
		"setresp":            e.setResp,
	}
	for name, fn := range fns {
		t.RawSetString(name, L.NewFunction(fn))
	}
	for i, name := range []string{"LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING"} {
		t.RawSetString(name, lua.LNumber(i))
	}
	for i, name := range []string{"REPL_NONE", "REPL_AOF", "REPL_SLAVE", "REPL_ALL"} {
		t.RawSetString(name, lua.LNumber(i))
	}
	t.RawSetString("REPL_REPLICA", lua.LNumber(2)) // REPL_SLAVE's new name
	return t
}

// notInScripts are the commands Redis refuses from a script.
var notInScripts = map[string]bool{"EVAL": true, "EVALSHA": true, "EVAL_RO": true,
	"EVALSHA_RO": true, "SCRIPT": true, "MULTI": true, "EXEC": true, "DISCARD": true,
	"WATCH": true, "UNWATCH": true, "SUBSCRIBE": true, "PSUBSCRIBE": true, "FCALL": true,
	"FUNCTION": true, "BLPOP": true, "BRPOP": true, "BZPOPMIN": true, "BZPOPMAX": true,
	"CLIENT": true, "MONITOR": true, "SYNC": true, "PSYNC": true}

// redisCall is redis.call (raise) and redis.pcall (return the error).
func (e *luaEngine) redisCall(L *lua.LState, raise bool) int {
	args, msg := callArgs(L)
	var c *cmdInfo
	if msg == "" {
		c = lookupCmdInfo(args[0])
		switch {
		case c.notAllowed:
			msg = "ERR This Redis command is not allowed from script"
		case e.call.ro && !c.readOnly:
			msg = "ERR Write commands are not allowed from read-only scripts."
		}
	}
	var r Reply
	if msg == "" {
		r = e.call.exec(args, c)
		if r.IsError() && strings.HasPrefix(r.Str, "ERR unknown command") {
			r = Error("ERR Unknown Redis command called from script")
		}
	} else {
		r = Error(msg)
	}
	if r.IsError() && raise {
		e.raise(L, r.Str)
		return 0
	}
	L.Push(e.toLua(r))
	return 1
}

// callArgs converts redis.call's arguments to strings; msg names what was
// wrong with them.
func callArgs(L *lua.LState) (args []string, msg string) {
	top := L.GetTop()
	if top == 0 {
		return nil, "ERR Please specify at least one argument for this redis lib call"
	}
	args = make([]string, top)
	for i := 1; i <= top; i++ {
		switch v := L.Get(i).(type) {
		case lua.LString:
			args[i-1] = string(v)
		case lua.LNumber:
			args[i-1] = v.String()
		default:
			return nil, "ERR Lua redis lib command arguments must be strings or integers"
		}
	}
	return args, ""
}

func errTable(L *lua.LState, msg string) *lua.LTable {
	t := L.CreateTable(0, 1)
	t.RawSetString("err", lua.LString(msg))
	return t
}

// raise raises a Redis error (an {err=msg} table, as Redis 7 does),
// remembering the script line for the reply.
func (e *luaEngine) raise(L *lua.LState, msg string) {
	e.call.errLine = lineOf(L.Where(1))
	L.Error(errTable(L, msg), 0)
}

// replyTable is redis.error_reply / redis.status_reply: {field = msg}.
func (e *luaEngine) replyTable(L *lua.LState, field string) int {
	msg, ok := L.Get(1).(lua.LString)
	if L.GetTop() != 1 || !ok {
		e.raise(L, "ERR wrong number or type of arguments")
		return 0
	}
	t := L.CreateTable(0, 1)
	t.RawSetString(field, msg)
	L.Push(t)
	return 1
}

func (e *luaEngine) sha1hex(L *lua.LState) int {
	if L.GetTop() != 1 {
		e.raise(L, "ERR wrong number of arguments")
		return 0
	}
	L.Push(lua.LString(sha1hex(lua.LVAsString(L.Get(1)))))
	return 1
}

func (e *luaEngine) setResp(L *lua.LState) int {
	if v := L.CheckInt(1); v != 2 && v != 3 {
		e.raise(L, "ERR RESP version must be 2 or 3.")
	}
	return 0
}

// toLua converts a command's reply to the value redis.call returns.
func (e *luaEngine) toLua(r Reply) lua.LValue {
	switch r.Kind {
	case KindInt:
		return lua.LNumber(r.Int)
	case KindBulk:
		return lua.LString(r.Str)
	case KindStatus:
		t := e.L.CreateTable(0, 1)
		t.RawSetString("ok", lua.LString(r.Str))
		return t
	case KindError:
		return errTable(e.L, r.Str)
	case KindArray:
		t := e.L.CreateTable(len(r.Arr), 0)
		for i, x := range r.Arr {
			t.RawSetInt(i+1, e.toLua(x))
		}
		return t
	}
	return lua.LFalse
}

// toReply converts a script's return value to its reply.
func (e *luaEngine) toReply(v lua.LValue, depth int) Reply {
	switch x := v.(type) {
	case lua.LNumber:
		return Int(int64(x))
	case lua.LString:
		return Bulk(string(x))
	case lua.LBool:
		if x {
			return Int(1)
		}
	case *lua.LTable:
		return e.tableReply(x, depth)
	}
	return Nil()
}

func (e *luaEngine) tableReply(t *lua.LTable, depth int) Reply {
	if s, ok := t.RawGetString("err").(lua.LString); ok {
		return Error(string(s))
	}
	if s, ok := t.RawGetString("ok").(lua.LString); ok {
		return Status(string(s))
	}
	if depth > 100 { // a table that contains itself
		return Error("ERR reached lua stack limit")
	}
	var out []Reply
	for i := 1; ; i++ {
		v := t.RawGetInt(i)
		if v == lua.LNil {
			break
		}
		out = append(out, e.toReply(v, depth+1))
	}
	return Array(out...)
}

// scriptReadOnly reports whether a command only reads (allowed in EVAL_RO).
func scriptReadOnly(name string) bool {
	return readOnly[name] || scriptReads[name]
}

var scriptReads = map[string]bool{"SMEMBERS": true, "SISMEMBER": true, "SCARD": true,
	"ZSCORE": true, "ZRANGE": true, "ZRANK": true, "ZCARD": true, "GETRANGE": true,
	"HLEN": true, "HKEYS": true, "HVALS": true, "HMGET": true, "MGET": true, "STRLEN": true,
	"TIME": true, "LRANGE": true, "LLEN": true, "PEXPIRETIME": true, "EXPIRETIME": true}
