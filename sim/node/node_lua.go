package node

// runLua runs a script on the node's Lua engine, each redis.call on the
// node's store at the node's time (which does not move during a script).
// A command the native store does not implement moves the node to
// miniredis in the middle of the script, its effects so far included, and
// the script goes on there: nothing else runs in between, so the script
// stays atomic. It returns the reply and the keys the script wrote (for
// replication; a node on miniredis ships its whole key space anyway).
func (n *Node) runLua(sha, src string, keys, argv []string, ro bool) (Reply, []string) {
	if n.lua == nil {
		n.lua = newLuaEngine()
	}
	var written []string
	now := n.now()
	exec := func(args []string) Reply {
		if n.native != nil && !n.native.Supports(args) {
			if r, ok := n.upgrade(); !ok {
				return r
			}
		}
		r := n.store.Do(now, args)
		if !r.IsError() && !scriptReadOnly(Upper(args[0])) {
			written = append(written, writtenKeys(args)...)
		}
		return r
	}
	r := n.lua.Run(sha, src, keys, argv, ro, exec)
	return r, written
}

// writtenKeys are the keys a write command names.
func writtenKeys(args []string) []string {
	switch Upper(args[0]) {
	case "MSET", "MSETNX":
		var ks []string
		for i := 1; i < len(args); i += 2 {
			ks = append(ks, args[i])
		}
		return ks
	}
	return commandKeys(args)
}
