package node

import "strings"

// The native store's lists: RPUSH, LPUSH, LPOP (one element), LLEN and
// LRANGE — what the wake lists of blocked waiters need (a script pushes, a
// parked BLPOP pops; see blocking.go). A list key holds at least one
// element: popping the last one deletes the key, as in Redis.

var listCmds = map[string]nativeCmd{
	"RPUSH": cmdPush(false), "LPUSH": cmdPush(true), "LPOP": cmdLPop,
	"LLEN": cmdLLen, "LRANGE": cmdLRange,
}

// listOf returns key's entry if it is a list (nil if the key is absent);
// a key of another type is WRONGTYPE.
func (n *Native) listOf(now int64, key string) (*entry, Reply, bool) {
	e := n.get(now, key)
	if e != nil && e.list == nil {
		return nil, errWrongType, false
	}
	return e, Reply{}, true
}

func cmdPush(left bool) nativeCmd {
	return func(n *Native, now int64, args []string) Reply {
		if len(args) < 3 {
			return errArgs(strings.ToLower(args[0]))
		}
		e, r, ok := n.listOf(now, args[1])
		if !ok {
			return r
		}
		if e == nil {
			e = &entry{list: make([]string, 0, len(args)-2)}
			n.keys[args[1]] = e
		}
		for _, v := range args[2:] {
			if left {
				e.list = append([]string{v}, e.list...)
			} else {
				e.list = append(e.list, v)
			}
		}
		return Int(int64(len(e.list)))
	}
}

func cmdLPop(n *Native, now int64, args []string) Reply {
	if len(args) != 2 {
		return errArgs("lpop")
	}
	e, r, ok := n.listOf(now, args[1])
	if !ok || e == nil {
		return r
	}
	v := e.list[0]
	e.list = e.list[1:]
	if len(e.list) == 0 {
		delete(n.keys, args[1])
	}
	return Bulk(v)
}

func cmdLLen(n *Native, now int64, args []string) Reply {
	if len(args) != 2 {
		return errArgs("llen")
	}
	e, r, ok := n.listOf(now, args[1])
	if !ok || e == nil {
		return zeroUnlessError(r)
	}
	return Int(int64(len(e.list)))
}

// cmdLRange implements the whole-list form only (LRANGE key 0 -1), which
// is what Supports admits.
func cmdLRange(n *Native, now int64, args []string) Reply {
	if len(args) != 4 {
		return errArgs("lrange")
	}
	e, r, ok := n.listOf(now, args[1])
	if !ok {
		return r
	}
	out := []Reply{}
	if e != nil {
		for _, v := range e.list {
			out = append(out, Bulk(v))
		}
	}
	return Array(out...)
}

// listSupported admits LRANGE over the whole list only.
func listSupported(args []string) bool {
	if Upper(args[0]) == "LRANGE" {
		return len(args) == 4 && args[2] == "0" && args[3] == "-1"
	}
	return true
}

// listState is a list KeyState: its elements in order, in Members.
func listState(key string, e *entry) KeyState {
	return KeyState{Key: key, Type: "list", Members: append([]string(nil), e.list...), ExpireAt: e.expireAt}
}

func init() {
	for name, c := range listCmds {
		collectionCmds[name] = c
		commonNames[name] = name
		commonNames[strings.ToLower(name)] = name
	}
}
