package node

import "strings"

// Native is the fast in-process store: the commands and scripts the lock
// patterns use, implemented in Go with Redis's semantics. Expiry is lazy
// (a key past its expiry is removed when touched), as seen by clients.
type Native struct {
	keys map[string]*entry
}

type entry struct {
	str      string
	hash     map[string]string   // nil unless a hash key
	set      map[string]struct{} // nil unless a set key
	zset     map[string]float64  // nil unless a sorted-set key
	list     []string            // nil unless a list key (never empty)
	expireAt int64               // ms; 0 = none
}

// isString reports whether e is a string key (no hash, set or sorted set).
func (e *entry) isString() bool {
	return e.hash == nil && e.set == nil && e.zset == nil && e.list == nil
}

var _ Store = (*Native)(nil)

// NewNative returns an empty native store.
func NewNative() *Native { return &Native{keys: map[string]*entry{}} }

// get returns the live entry for key, expiring it if its time has passed
// (Redis: expired when now > expireAt).
func (n *Native) get(now int64, key string) *entry {
	e := n.keys[key]
	if e != nil && e.expireAt != 0 && nowMS(now) > e.expireAt {
		delete(n.keys, key)
		return nil
	}
	return e
}

// Do runs one command.
func (n *Native) Do(now int64, args []string) Reply {
	if len(args) == 0 {
		return Error("ERR empty command")
	}
	cmd := lookupCmd(Upper(args[0]))
	if cmd == nil {
		return errorf("ERR unknown command '%s'", args[0])
	}
	return cmd(n, now, args)
}

// Supports reports whether Do implements the command with these options;
// a Node sends anything else to miniredis.
func (n *Native) Supports(args []string) bool {
	if len(args) == 0 {
		return false
	}
	cmd := lookupCmd(Upper(args[0]))
	if cmd == nil {
		return false
	}
	if strings.EqualFold(args[0], "SET") {
		return setSupported(args)
	}
	return collectionSupported(args)
}

// Eval runs a script this store implements natively; the caller checks
// KnowsScript first (an unknown script is an error here).
func (n *Native) Eval(now int64, src string, keys, args []string) Reply {
	return n.EvalSHA(now, sha1hex(src), keys, args)
}

// EvalSHA is Eval for a script known by its SHA1.
func (n *Native) EvalSHA(now int64, sha string, keys, args []string) Reply {
	s, ok := nativeScripts[sha]
	if !ok || len(keys) < s.keys || len(args) < s.args {
		return Error("ERR script not implemented natively")
	}
	return s.run(n, now, keys, args)
}

// KnowsScript reports whether Eval can run src with that many keys and args.
func (n *Native) KnowsScript(sha string, nkeys, nargs int) bool {
	s, ok := nativeScripts[sha]
	return ok && nkeys >= s.keys && nargs >= s.args
}

// Dump returns the state of keys, or of every key.
func (n *Native) Dump(now int64, keys []string) []KeyState {
	if keys == nil {
		for k := range n.keys {
			keys = append(keys, k)
		}
	}
	if len(keys) == 1 { // the loss-signal oracle's look, after every command
		return []KeyState{n.state(now, keys[0])}
	}
	keys = sortedUnique(keys)
	out := make([]KeyState, 0, len(keys))
	for _, k := range keys {
		out = append(out, n.state(now, k))
	}
	return out
}

// state is the state of one key.
func (n *Native) state(now int64, k string) KeyState {
	e := n.get(now, k)
	switch {
	case e == nil:
		return KeyState{Key: k, Type: "none"}
	case e.hash != nil:
		return KeyState{Key: k, Type: "hash", Fields: sortedFields(e.hash), ExpireAt: e.expireAt}
	case e.set != nil || e.zset != nil:
		return collectionState(k, e)
	case e.list != nil:
		return listState(k, e)
	}
	return KeyState{Key: k, Type: "string", Str: e.str, ExpireAt: e.expireAt}
}

func sortedFields(h map[string]string) [][2]string {
	out := make([][2]string, 0, len(h))
	for f, v := range h {
		out = append(out, [2]string{f, v})
	}
	return sortedPairs(out)
}

// Load overwrites keys with their states.
func (n *Native) Load(now int64, ks []KeyState) {
	for _, s := range ks {
		delete(n.keys, s.Key)
		switch s.Type {
		case "string":
			n.keys[s.Key] = &entry{str: s.Str, expireAt: s.ExpireAt}
		case "hash":
			h := make(map[string]string, len(s.Fields))
			for _, f := range s.Fields {
				h[f[0]] = f[1]
			}
			n.keys[s.Key] = &entry{hash: h, expireAt: s.ExpireAt}
		case "set", "zset":
			n.keys[s.Key] = collectionEntry(s)
		case "list":
			n.keys[s.Key] = &entry{list: append([]string(nil), s.Members...), expireAt: s.ExpireAt}
		}
	}
}

// Flush deletes every key.
func (n *Native) Flush() { clear(n.keys) }

// Close does nothing: a native store holds no resources.
func (n *Native) Close() {}
