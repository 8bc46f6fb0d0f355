package node

import (
	"fmt"
	"strings"
	"time"

	"github.com/locksim/locksim/sim/vclock"
)

// Backend selects a node's store.
type Backend string

// Backends.
const (
	BackendNative Backend = "native" // Native with twins and the Lua engine, moving to miniredis on the first command it lacks
	BackendMini   Backend = "mini"   // miniredis from the start
)

// Timeline is the node's view of the scheduler: true time, and events.
type Timeline interface {
	Now() int64
	At(t int64, fn func())
}

// Config describes one node.
type Config struct {
	Name    string
	Clock   *vclock.Clock // the node's clock (TTLs follow its wall reading)
	Backend Backend
	// ReplicaDelay, if positive, gives the node a replica that applies each
	// write that long after the primary did (asynchronous replication).
	ReplicaDelay time.Duration
	// ReplicaLag, if set, draws the delay of each write to each replica
	// instead (a replica still applies its writes in order).
	ReplicaLag func() time.Duration
	// Replicas is how many replicas the node has (0: one), so that it can
	// fail over that many times.
	Replicas int
}

// Stats counts what a node did.
type Stats struct {
	Commands   int    // commands executed (scripts included)
	Scripts    int    // script executions
	NoScript   int    // EVALSHA refused with NOSCRIPT
	Replicated int    // writes applied by the replicas
	Lost       int    // writes a failover or restart lost before the replica had them
	Unsynced   int    // writes a restart lost because they came after the last fsync
	Backend    string // the store in use now
}

// Node is one simulated Redis server (with its replicas, if configured).
type Node struct {
	name     string
	clk      *vclock.Clock
	tl       Timeline
	store    Store
	native   *Native // the store while it is native
	scripts  map[string]string
	shas     map[string]string // script source → SHA1, memoised
	up       bool
	lua      *luaEngine // runs the scripts without a native twin, made on first use
	useLua   bool       // scripts without a twin run on lua (a native node, even once on miniredis)
	noTwins  bool       // run every script on the Lua engine (the differential tests)
	replicas []*replica
	fsync    fsync     // the fsync window, if SetFsync turned it on
	offset   int64     // writes shipped to the replicas (see Offset)
	waits    []*waiter // parked WAITs (see Wait)
	epoch    int       // crashes and failovers so far (see Epoch)
	stats    Stats
	blocked  []*parked // BLPOPs waiting for a push, in arrival order (blocking.go)
}

// New returns a running node.
func New(cfg Config, tl Timeline) (*Node, error) {
	if cfg.Clock == nil {
		cfg.Clock = vclock.New(0)
	}
	n := &Node{name: cfg.Name, clk: cfg.Clock, tl: tl, up: true,
		scripts: map[string]string{}, shas: map[string]string{}}
	switch cfg.Backend {
	case BackendNative, "":
		n.native = NewNative()
		n.store = n.native
		n.useLua = true
	case BackendMini:
		m, err := NewMini(n.now())
		if err != nil {
			return nil, err
		}
		n.store = m
	default:
		return nil, fmt.Errorf("node %s: unknown backend %q (known: native, mini)", cfg.Name, cfg.Backend)
	}
	n.replicas = newReplicas(cfg)
	for _, r := range n.replicas {
		if n.native == nil {
			if err := r.upgrade(n.now()); err != nil {
				return nil, err
			}
		}
	}
	return n, nil
}

// Name is the node's name.
func (n *Node) Name() string { return n.name }

// Clock is the node's clock model.
func (n *Node) Clock() *vclock.Clock { return n.clk }

// Up reports whether the node accepts commands.
func (n *Node) Up() bool { return n.up }

// HasReplica reports whether a replica is attached.
func (n *Node) HasReplica() bool { return len(n.replicas) > 0 }

// Stats returns the node's counters.
func (n *Node) Stats() Stats {
	s := n.stats
	s.Backend = string(BackendMini)
	if n.native != nil {
		s.Backend = string(BackendNative)
	}
	return s
}

// now is the node's wall clock.
func (n *Node) now() int64 { return n.clk.Wall(n.tl.Now()) }

// Peek returns the current state of keys without counting a command.
func (n *Node) Peek(keys []string) []KeyState { return n.store.Dump(n.now(), keys) }

// exec runs one command and returns its reply. The caller (the network)
// only delivers commands to a node that is up.
func (n *Node) exec(args []string) Reply {
	if len(args) == 0 {
		return Error("ERR empty command")
	}
	n.stats.Commands++
	n.syncUpTo(n.tl.Now())
	switch Upper(args[0]) {
	case "EVAL", "EVAL_RO":
		return n.eval(args, false)
	case "EVALSHA", "EVALSHA_RO":
		return n.eval(args, true)
	case "SCRIPT":
		return n.script(args)
	case "WAIT":
		return Error("ERR WAIT blocks: it is served by Node.Wait, with the connection's last write")
	}
	return n.do(args)
}

// Exec runs one command and returns its reply, then serves the BLPOPs it
// pushed for (see Submit).
func (n *Node) Exec(args []string) Reply {
	r := n.exec(args)
	n.serveBlocked()
	return r
}

func (n *Node) do(args []string) Reply {
	if n.native != nil && !n.native.Supports(args) {
		if r, ok := n.upgrade(); !ok {
			return r
		}
	}
	r := n.store.Do(n.now(), args)
	if r.IsError() || readOnly[Upper(args[0])] {
		return r
	}
	n.wrote()
	if len(n.replicas) > 0 {
		n.replicate(commandKeys(args))
	}
	return r
}

var readOnly = map[string]bool{"GET": true, "EXISTS": true, "PTTL": true, "TTL": true,
	"HEXISTS": true, "HGET": true, "HGETALL": true, "TYPE": true, "KEYS": true, "PING": true,
	"LLEN": true, "LRANGE": true}

func commandKeys(args []string) []string {
	switch Upper(args[0]) {
	case "DEL", "UNLINK", "EXISTS":
		return args[1:]
	}
	if len(args) > 1 {
		return args[1:2]
	}
	return nil
}

func (n *Node) eval(args []string, bySHA bool) Reply {
	if len(args) < 3 {
		return errArgs(args[0])
	}
	nk, ok := parseInt(args[2])
	switch {
	case !ok:
		return errNotInt
	case nk < 0:
		return Error("ERR Number of keys can't be negative")
	case nk > int64(len(args)-3):
		return Error("ERR Number of keys can't be greater than number of args")
	}
	keys, argv := args[3:3+nk], args[3+nk:]
	sha, src := lowerSHA(args[1]), args[1]
	if bySHA {
		if src, ok = n.scripts[sha]; !ok {
			n.stats.NoScript++
			return errNoScript
		}
	} else {
		sha = n.load(src)
	}
	return n.run(sha, src, keys, argv, strings.HasSuffix(Upper(args[0]), "_RO"))
}

// load caches src in the script cache and returns its SHA1.
func (n *Node) load(src string) string {
	sha, ok := n.shas[src]
	if !ok {
		sha = sha1hex(src)
		n.shas[src] = sha
	}
	n.scripts[sha] = src
	return sha
}

// run executes a script: by its native twin if it has one, else by the
// node's Lua engine on its own store (a BackendMini node hands it to
// miniredis, the reference the engine is tested against).
func (n *Node) run(sha, src string, keys, argv []string, ro bool) Reply {
	n.stats.Scripts++
	r, touched := n.runScript(sha, src, keys, argv, ro)
	if !ro {
		n.wrote()
	}
	if len(n.replicas) > 0 {
		n.replicate(touched)
	}
	return r
}

// runScript runs a script by its twin, its guarded twin (twins.go) if
// that takes the input, the Lua engine or miniredis, in that order of
// preference; it returns the reply and the keys to replicate.
func (n *Node) runScript(sha, src string, keys, argv []string, ro bool) (Reply, []string) {
	if !n.noTwins && n.native != nil {
		// Every twin's script writes: EVAL_RO runs it on the engine, which
		// refuses the first write as Redis does.
		if !ro && n.native.KnowsScript(sha, len(keys), len(argv)) {
			return n.native.EvalSHA(n.now(), sha, keys, argv), keys
		}
		if r, written, ok := n.native.tryTwin(n.now(), sha, keys, argv, ro); ok {
			return r, written
		}
	}
	if n.useLua {
		return n.runLua(sha, src, keys, argv, ro)
	}
	return n.store.Eval(n.now(), src, keys, argv), keys
}

func (n *Node) script(args []string) Reply {
	if len(args) < 2 {
		return errArgs("script")
	}
	switch Upper(args[1]) {
	case "LOAD":
		if len(args) != 3 {
			return errArgs("script|load")
		}
		return Bulk(n.load(args[2]))
	case "EXISTS":
		out := make([]Reply, 0, len(args)-2)
		for _, sha := range args[2:] {
			_, ok := n.scripts[strings.ToLower(sha)]
			out = append(out, Int(boolInt(ok)))
		}
		return Array(out...)
	case "FLUSH":
		clear(n.scripts)
		return Status("OK")
	}
	return errorf("ERR unknown subcommand '%s'", args[1])
}

// upgrade moves a native node's key space (and its replica's) into
// miniredis, for a script or command the native store does not implement.
// It is a no-op on a node already on miniredis.
func (n *Node) upgrade() (Reply, bool) {
	if n.native == nil {
		return Reply{}, true
	}
	m, err := migrate(n.now(), n.native)
	for _, r := range n.replicas {
		if err == nil {
			err = r.upgrade(n.now())
		}
	}
	if err != nil {
		return Error("ERR " + err.Error()), false
	}
	n.store, n.native = m, nil
	return Reply{}, true
}

// migrate copies a native store into a new miniredis store.
func migrate(now int64, from Store) (*Mini, error) {
	m, err := NewMini(now)
	if err != nil {
		return nil, err
	}
	m.Load(now, from.Dump(now, nil))
	return m, nil
}

func (r *replica) upgrade(now int64) error {
	if _, ok := r.store.(*Native); !ok {
		return nil
	}
	m, err := migrate(now, r.store)
	if err != nil {
		return err
	}
	r.store = m
	return nil
}

// boolInt is Redis's integer for a boolean: 1 or 0.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
