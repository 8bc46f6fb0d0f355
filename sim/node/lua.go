package node

import (
	"math/rand/v2"
	"strconv"
	"strings"

	luajson "github.com/alicebob/miniredis/v2/gopher-json"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// luaEngine runs the Lua of any script against a node's own store, in one
// Lua state kept for the node's life: each script is compiled once and its
// chunk cached by SHA1, and a call only binds fresh KEYS and ARGV tables and
// runs the chunk. Redis's scripting environment is kept where a script
// could tell the difference:
//
//   - the libraries Redis 7 loads that scripts use (base without file
//     access, print or setfenv; table, string, math, coroutine, cjson) and
//     the redis table (call, pcall, error_reply, status_reply, sha1hex, log,
//     replicate_commands, set_repl, setresp and the LOG_ and REPL_
//     constants);
//   - globals are read-only: a script that assigns a global or changes a
//     library table fails with "Attempt to modify a readonly table", one
//     that reads an undefined global with "Script attempted to access
//     nonexistent global variable", so nothing leaks from one call to the
//     next;
//   - math.random restarts from the same seed at every call (Redis resets
//     its generator per script; the sequence is not Redis's own);
//   - a script runs to completion with nothing interleaved, and its effects
//     up to an error stay (no rollback), as in Redis;
//   - error replies are worded as Redis 7 words them ("... script: <sha>,
//     on @user_script:<line>.").
//
// What it does not model: the busy-script timeout (a script that loops
// forever hangs the simulation) and RESP3 replies.
type luaEngine struct {
	L       *lua.LState
	globals *lua.LTable               // the real globals (behind a read-only proxy)
	chunks  map[string]*lua.LFunction // compiled scripts by SHA1, each called again and again
	rng     *rand.PCG
	call    scriptCall // the call in progress
}

// scriptCall is the state of one script execution.
type scriptCall struct {
	sha     string
	ro      bool                           // EVAL_RO / EVALSHA_RO
	exec    func([]string, *cmdInfo) Reply // runs one redis.call on the node's store
	errLine string                         // line of the last error raised by redis.call
}

// chunkName is what Redis calls every script in its error messages.
const chunkName = "user_script"

func newLuaEngine() *luaEngine {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	e := &luaEngine{L: L, globals: L.G.Global, chunks: map[string]*lua.LFunction{},
		rng: rand.NewPCG(0, 0)}
	e.openLibs()
	e.protect()
	return e
}

// openLibs loads the libraries and the redis table.
func (e *luaEngine) openLibs() {
	L := e.L
	for _, lib := range []struct {
		name string
		fn   lua.LGFunction
	}{
		{lua.BaseLibName, lua.OpenBase}, {lua.TabLibName, lua.OpenTable},
		{lua.StringLibName, lua.OpenString}, {lua.MathLibName, lua.OpenMath},
		{lua.CoroutineLibName, lua.OpenCoroutine},
	} {
		L.Push(L.NewFunction(lib.fn))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	for _, name := range []string{"dofile", "loadfile", "print", "setfenv", "getfenv",
		"module", "require", "newproxy", "_printregs", "_GOPHER_LUA_VERSION"} {
		e.globals.RawSetString(name, lua.LNil)
	}
	e.globals.RawSetString("rawset", L.NewFunction(e.rawset))
	math := e.globals.RawGetString("math").(*lua.LTable)
	math.RawSetString("random", L.NewFunction(e.random))
	math.RawSetString("randomseed", L.NewFunction(e.randomseed))
	L.Push(L.NewFunction(luajson.Loader))
	L.Call(0, 1)
	e.globals.RawSetString("cjson", L.Get(-1))
	L.Pop(1)
	e.globals.RawSetString("redis", e.redisLib())
}

// protect puts the globals and every library table behind read-only
// proxies, and makes reading an undefined global an error.
func (e *luaEngine) protect() {
	L := e.L
	for _, name := range []string{"table", "string", "math", "coroutine", "cjson", "redis"} {
		lib := e.globals.RawGetString(name).(*lua.LTable)
		e.globals.RawSetString(name, e.readOnly(lib))
		if name == "string" { // methods on strings ("s:sub()") go through the proxy too
			mt := L.GetMetatable(lua.LString("")).(*lua.LTable)
			mt.RawSetString("__index", e.globals.RawGetString(name))
			mt.RawSetString("__metatable", lua.LFalse)
		}
	}
	gmt := L.NewTable()
	gmt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("Script attempted to access nonexistent global variable '%s'", L.CheckAny(2).String())
		return 0
	}))
	L.SetMetatable(e.globals, gmt)
	env := e.readOnly(e.globals)
	e.globals.RawSetString("_G", env)
	L.Env = env
}

// readOnly returns an empty proxy that reads through to t and refuses
// writes; its metatable is hidden from scripts.
func (e *luaEngine) readOnly(t *lua.LTable) *lua.LTable {
	L := e.L
	mt := L.NewTable()
	mt.RawSetString("__index", t)
	mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("Attempt to modify a readonly table")
		return 0
	}))
	mt.RawSetString("__metatable", lua.LFalse)
	p := L.NewTable()
	L.SetMetatable(p, mt)
	return p
}

// rawset is Lua's rawset, refusing the protected tables.
func (e *luaEngine) rawset(L *lua.LState) int {
	t := L.CheckTable(1)
	if t == e.globals || isProxy(t) {
		e.raise(L, "ERR Attempt to modify a readonly table")
		return 0
	}
	t.RawSet(L.CheckAny(2), L.CheckAny(3))
	L.Push(t)
	return 1
}

func isProxy(t *lua.LTable) bool {
	mt, ok := t.Metatable.(*lua.LTable)
	return ok && mt.RawGetString("__metatable") == lua.LFalse
}

// random is math.random on the engine's per-call generator.
func (e *luaEngine) random(L *lua.LState) int {
	r := rand.New(e.rng)
	switch L.GetTop() {
	case 0:
		L.Push(lua.LNumber(r.Float64()))
	default:
		lo, hi := 1, L.CheckInt(1)
		if L.GetTop() > 1 {
			lo, hi = hi, L.CheckInt(2)
		}
		if lo > hi {
			L.ArgError(L.GetTop(), "interval is empty")
		}
		L.Push(lua.LNumber(lo + r.IntN(hi-lo+1)))
	}
	return 1
}

func (e *luaEngine) randomseed(L *lua.LState) int {
	e.rng.Seed(uint64(L.CheckInt64(1)), 0)
	return 0
}

// compile returns the cached chunk of sha, compiling src on first use.
// The chunk is one function value for every call: it has no upvalues, and
// its environment is the read-only globals.
func (e *luaEngine) compile(sha, src string) (*lua.LFunction, Reply, bool) {
	if fn, ok := e.chunks[sha]; ok {
		return fn, Reply{}, true
	}
	chunk, err := parse.Parse(strings.NewReader(src), chunkName)
	if err != nil {
		return nil, Error("ERR Error compiling script (new function): " + compileMessage(err)), false
	}
	p, err := lua.Compile(chunk, chunkName)
	if err != nil {
		return nil, Error("ERR Error compiling script (new function): " + compileMessage(err)), false
	}
	// The main chunk is vararg, and gopher-lua's Lua 5.1 compatibility gives
	// such a function an "arg" table at every call; the main chunk has no
	// local of that name, so the table is garbage: do not build it.
	p.IsVarArg &^= lua.VarArgNeedsArg
	fn := e.L.NewFunctionFromProto(p)
	e.chunks[sha] = fn
	return fn, Reply{}, true
}

func compileMessage(err error) string {
	msg := strings.TrimSpace(err.Error())
	if !strings.HasPrefix(msg, chunkName) {
		msg = chunkName + ": " + msg
	}
	return msg
}

// Run executes the script (src, known by sha) with keys and argv; exec
// runs each redis.call. ro refuses write commands (EVAL_RO).
func (e *luaEngine) Run(sha, src string, keys, argv []string, ro bool, exec func([]string, *cmdInfo) Reply) Reply {
	fn, r, ok := e.compile(sha, src)
	if !ok {
		return r
	}
	e.call = scriptCall{sha: sha, ro: ro, exec: exec}
	defer func() { e.call = scriptCall{}; e.L.SetTop(0) }()
	e.globals.RawSetString("KEYS", e.strings(keys))
	e.globals.RawSetString("ARGV", e.strings(argv))
	e.rng.Seed(0, 0)
	e.L.Push(fn)
	if err := e.L.PCall(0, 1, nil); err != nil {
		return e.errorReply(err)
	}
	return e.toReply(e.L.Get(-1), 0)
}

func (e *luaEngine) strings(ss []string) *lua.LTable {
	t := e.L.CreateTable(len(ss), 0)
	for i, s := range ss {
		t.RawSetInt(i+1, lua.LString(s))
	}
	return t
}

// errorReply words a script's failure as Redis 7 does.
func (e *luaEngine) errorReply(err error) Reply {
	suffix := " script: " + e.call.sha + ", on @" + chunkName + ":"
	ae, ok := err.(*lua.ApiError)
	if !ok {
		return Error("ERR " + err.Error() + suffix + "0.")
	}
	if t, ok := ae.Object.(*lua.LTable); ok {
		msg := lua.LVAsString(t.RawGetString("err"))
		return Error(msg + suffix + orZero(e.call.errLine) + ".")
	}
	msg := lua.LVAsString(ae.Object)
	if msg == "" {
		msg = ae.Error()
	}
	return Error("ERR " + msg + suffix + orZero(lineOf(msg)) + ".")
}

// lineOf reads N from a message starting "user_script:N:".
func lineOf(msg string) string {
	rest, ok := strings.CutPrefix(msg, chunkName+":")
	if !ok {
		return ""
	}
	n, _, _ := strings.Cut(rest, ":")
	if _, err := strconv.Atoi(n); err != nil {
		return ""
	}
	return n
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}
