package node

import "slices"

// PeekMark reports whether key marks token on the node now, and the key's
// expiry in the node's milliseconds (0: none), without counting a command.
// It is Peek of one key and KeyState.Marks without building the key's
// state: the loss-signal oracle asks it of every open holding after every
// command, so on a native store it allocates nothing.
func (n *Node) PeekMark(key, token string) (expireAt int64, ok bool) {
	if n.native != nil && n.store == Store(n.native) {
		return n.native.mark(n.now(), key, token)
	}
	ks := n.store.Dump(n.now(), []string{key})
	if len(ks) == 0 || !ks[0].Marks(token) {
		return 0, false
	}
	return ks[0].ExpireAt, true
}

// Marks reports whether the key's state names token: a string equal to
// it, a hash field, or a set, sorted-set or list member that is it. With
// token empty, it reports whether the key exists.
func (s KeyState) Marks(token string) bool {
	if token == "" {
		return s.Type != "none" && s.Type != ""
	}
	if s.Str == token {
		return true
	}
	for _, f := range s.Fields {
		if f[0] == token {
			return true
		}
	}
	return slices.Contains(s.Members, token)
}

// mark is Marks of the key's state, read from the entry in place. It
// reads the key as Dump does (an expired key is dropped on the way).
func (n *Native) mark(now int64, key, token string) (int64, bool) {
	e := n.get(now, key)
	if e == nil {
		return 0, false
	}
	var ok bool
	switch {
	case token == "":
		ok = true
	case e.hash != nil:
		_, ok = e.hash[token]
	case e.set != nil:
		_, ok = e.set[token]
	case e.zset != nil:
		_, ok = e.zset[token]
	case e.list != nil:
		ok = slices.Contains(e.list, token)
	default:
		ok = e.str == token
	}
	if !ok {
		return 0, false
	}
	return e.expireAt, true
}
