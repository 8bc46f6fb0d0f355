package node

import (
	"strings"
	"sync"
)

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
	exec := func(args []string, c *cmdInfo) Reply {
		var r Reply
		switch {
		case n.native != nil && c.native != nil && (c.check == nil || c.check(args)):
			r = c.native(n.native, now, args)
		case n.native != nil:
			if u, ok := n.upgrade(); !ok {
				return u
			}
			fallthrough
		default:
			r = n.store.Do(now, args)
		}
		if !r.IsError() && !c.readOnly {
			written = append(written, writtenKeys(c.name, args)...)
		}
		return r
	}
	r := n.lua.Run(sha, src, keys, argv, ro, exec)
	return r, written
}

// cmdInfo is what a script's redis.call needs to know of a command name,
// looked up once per spelling.
type cmdInfo struct {
	name       string              // upper case
	native     nativeCmd           // nil if the native store lacks it
	check      func([]string) bool // options the native command supports, if it restricts them
	readOnly   bool                // allowed in EVAL_RO, not replicated
	notAllowed bool                // refused from scripts
}

// cmdInfos memoises cmdInfo by the spelling scripts use. Simulations run
// in parallel share it, so cmdInfoMu guards it.
var (
	cmdInfoMu sync.Mutex
	cmdInfos  = map[string]*cmdInfo{}
)

func lookupCmdInfo(spelling string) *cmdInfo {
	cmdInfoMu.Lock()
	defer cmdInfoMu.Unlock()
	if c := cmdInfos[spelling]; c != nil {
		return c
	}
	name := Upper(spelling)
	c := &cmdInfo{name: name, native: lookupCmd(name), readOnly: scriptReadOnly(name), notAllowed: notInScripts[name]}
	switch name {
	case "SET":
		c.check = setSupported
	case "ZADD", "ZRANGE":
		c.check = collectionSupported
	case "LRANGE":
		c.check = listSupported
	}
	if len(cmdInfos) < 1024 { // scripts with generated command names do not grow it forever
		cmdInfos[spelling] = c
	}
	return c
}

// lowerSHA is strings.ToLower for a SHA1, without allocating when it is
// already lower case (as clients send it).
func lowerSHA(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// writtenKeys are the keys a write command names.
func writtenKeys(name string, args []string) []string {
	switch name {
	case "MSET", "MSETNX":
		var ks []string
		for i := 1; i < len(args); i += 2 {
			ks = append(ks, args[i])
		}
		return ks
	}
	return commandKeys(args)
}
