package node

import "strings"

// The guarded twins themselves (see twins.go), each beside the lines of
// its script it follows. A twin returns ok false only before its first
// write.

// twinSemAcquire is sem_acquire.lua: store N or check it against the
// stored one, prune the holdings, grant the permits wanted if they fit
// beside the live ones.
func twinSemAcquire(t *twinRun, keys, args []string) (Reply, bool) {
	set, size, tok, prefix := keys[0], keys[1], args[0], args[3]
	ms, okTTL := ttl(args[1])
	n, okN := small(args[2])
	k, okK := small(args[4])
	if !okTTL || !okN || !okK || !distinct(set, size) || underPrefix(prefix, set, size) ||
		!t.kindOK(set, isSet) || !t.kindOK(size, isStr) {
		return Reply{}, false
	}
	stored := t.read(cmdGet, "GET", size)
	if !stored.IsNil() && stored.Str != args[2] {
		v, ok := small(stored.Str)
		if !ok || v < 1 {
			return Reply{}, false
		}
		return Int(-v), true
	}
	if !t.permitCounts(set, prefix) {
		return Reply{}, false
	}
	if stored.IsNil() {
		t.write(cmdSet, "SET", size, args[2])
	}
	used := t.pruneCounts(set, prefix)
	if used+k > n {
		return Int(0), true
	}
	t.write(cmdSAdd, "SADD", set, tok)
	t.write(cmdSet, "SET", prefix+tok, args[4], "PX", args[1])
	t.keep(set, ms, args[1])
	return Int(1), true
}

// permitCounts reports whether every live holding's key of the permits set
// holds a small integer, so that sem_acquire.lua's sum cannot fail or lose
// exactness.
func (t *twinRun) permitCounts(set, prefix string) bool {
	var sum int64
	for _, m := range t.read(cmdSMembers, "SMEMBERS", set).Arr {
		e := t.n.get(t.now, prefix+m.Str)
		if e == nil {
			continue
		}
		v, ok := small(e.str)
		if !e.isString() || !ok {
			return false
		}
		if sum += v; sum >= maxExact || sum <= -maxExact {
			return false
		}
	}
	return true
}

// pruneCounts is sem_acquire.lua's loop: drop the holdings whose key has
// expired and sum the permit counts of the others.
func (t *twinRun) pruneCounts(set, prefix string) int64 {
	var used int64
	for _, m := range t.read(cmdSMembers, "SMEMBERS", set).Arr {
		r := t.read(cmdGet, "GET", prefix+m.Str)
		if r.IsNil() {
			t.write(cmdSRem, "SREM", set, m.Str)
			continue
		}
		v, _ := small(r.Str)
		used += v
	}
	return used
}

// twinMemberRelease is member_release.lua: drop one member and its key.
func twinMemberRelease(t *twinRun, keys, args []string) (Reply, bool) {
	if !t.kindOK(keys[0], isSet) {
		return Reply{}, false
	}
	key := args[1] + args[0]
	held := t.read(cmdExists, "EXISTS", key)
	t.write(cmdSRem, "SREM", keys[0], args[0])
	t.write(cmdDel, "DEL", key)
	return held, true
}

// twinRWRLock is rw_rlock.lua: join the readers unless a writer holds the
// lock or has announced its intent.
func twinRWRLock(t *twinRun, keys, args []string) (Reply, bool) {
	writer, readers, intent := keys[0], keys[1], keys[2]
	ms, ok := ttl(args[1])
	if !ok || !t.kindOK(readers, isSet) || !t.kindOK(writer, isStr) || !t.kindOK(intent, isStr) {
		return Reply{}, false
	}
	if t.read(cmdExists, "EXISTS", writer).Int == 1 {
		return t.n.heldFor(t.now, writer), true
	}
	if t.read(cmdExists, "EXISTS", intent).Int == 1 {
		return Int(0), true
	}
	t.write(cmdSAdd, "SADD", readers, args[0])
	t.write(cmdSet, "SET", args[2]+args[0], "1", "PX", args[1])
	t.keep(readers, ms, args[1])
	return Int(1), true
}

// twinRWLock is rw_lock.lua: one writer poll, announcing the intent.
func twinRWLock(t *twinRun, keys, args []string) (Reply, bool) {
	writer, readers, intentKey := keys[0], keys[1], keys[2]
	tok := args[0]
	_, okTTL := ttl(args[1])
	_, okIntent := ttl(args[2])
	if !okTTL || !okIntent || !distinct(writer, readers, intentKey) ||
		!t.kindOK(readers, isSet) || !t.kindOK(writer, isStr) || !t.kindOK(intentKey, isStr) {
		return Reply{}, false
	}
	live := t.pruneSet(readers, args[3])
	if t.read(cmdExists, "EXISTS", writer).Int == 1 {
		return t.n.heldFor(t.now, writer), true
	}
	intent := t.read(cmdGet, "GET", intentKey)
	switch {
	case intent.IsNil():
		t.write(cmdSet, "SET", intentKey, tok, "PX", args[2])
		intent = Bulk(tok)
	case intent.Str == tok:
		t.write(pexpire, "PEXPIRE", intentKey, args[2])
	}
	if intent.Str != tok || live > 0 {
		return Int(0), true
	}
	t.write(cmdSet, "SET", writer, tok, "PX", args[1])
	t.write(cmdDel, "DEL", intentKey)
	return Int(1), true
}

// twinFairAcquire is fair_acquire.lua: one poll of the fair queue, with
// the fence counter KEYS[4] if given.
func twinFairAcquire(t *twinRun, keys, args []string) (Reply, bool) {
	lock, queue, tickets := keys[0], keys[1], keys[2]
	tok, prefix := args[0], args[3]
	waiter := prefix + tok
	named := []string{lock, queue, tickets, waiter}
	fenced := len(keys) > 3
	if fenced {
		named = append(named, keys[3])
	}
	_, okTTL := ttl(args[1])
	wms, okWait := ttl(args[2])
	if !okTTL || !okWait || !distinct(named...) || !t.kindOK(lock, isStr) || !t.kindOK(queue, isZSet) ||
		!t.counter(tickets) || (fenced && !t.counter(keys[3])) {
		return Reply{}, false
	}
	t.pruneZSet(queue, prefix)
	if t.read(cmdZScore, "ZSCORE", queue, tok).IsNil() {
		ticket := t.write(cmdIncr, "INCR", tickets)
		t.write(cmdZAdd, "ZADD", queue, itoa(ticket.Int), tok)
	}
	t.write(cmdSet, "SET", waiter, "1", "PX", args[2])
	t.keep(queue, wms, args[2])
	t.keep(tickets, wms, args[2])
	if head, ok := t.first(queue); !ok || head != tok || t.read(cmdExists, "EXISTS", lock).Int != 0 {
		return Int(t.read(cmdZRank, "ZRANK", queue, tok).Int + 1), true
	}
	var fence int64
	if fenced {
		fence = t.write(cmdIncr, "INCR", keys[3]).Int
	}
	t.write(cmdSet, "SET", lock, tok, "PX", args[1])
	t.write(cmdZRem, "ZREM", queue, tok)
	t.write(cmdDel, "DEL", waiter)
	return Int(-fence), true
}

// twinFairRelease is fair_release.lua: owner-checked delete, then wake the
// head of the queue (lib_wake.lua's wake_head).
func twinFairRelease(t *twinRun, keys, args []string) (Reply, bool) {
	lock, queue := keys[0], keys[1]
	tok, prefix, wake := args[0], args[1], args[2]
	_, ok := ttl(args[3])
	if !ok || !distinct(lock, queue) || underPrefix(prefix, lock, queue) ||
		!t.kindOK(lock, isStr) || !t.kindOK(queue, isZSet) {
		return Reply{}, false
	}
	if v := t.read(cmdGet, "GET", lock); v.Kind != KindBulk || v.Str != tok {
		return Int(0), true
	}
	// The head the prune will leave: no member key is lock or queue, so the
	// writes before it do not change what EXISTS says of them.
	if head, ok := t.liveHead(queue, prefix); ok {
		if k := wake + head; k == lock || k == queue || !t.kindOK(k, isList) {
			return Reply{}, false
		}
	}
	t.write(cmdDel, "DEL", lock)
	t.pruneZSet(queue, prefix)
	if head, ok := t.first(queue); ok {
		t.write(cmdPush(false), "RPUSH", wake+head, "1")
		t.write(pexpire, "PEXPIRE", wake+head, args[3])
	}
	return Int(1), true
}

// first is redis.call('ZRANGE', queue, 0, 0)[1], without building the
// sorted list (the guards made queue a sorted set or absent).
func (t *twinRun) first(queue string) (string, bool) {
	z, _, _ := t.n.zsetOf(t.now, queue, false)
	return zfirst(z)
}

// liveHead is the first member of the queue whose member key exists,
// without pruning.
func (t *twinRun) liveHead(queue, prefix string) (string, bool) {
	for _, m := range t.read(cmdZRange, "ZRANGE", queue, "0", "-1").Arr {
		if t.read(cmdExists, "EXISTS", prefix+m.Str).Int == 1 {
			return m.Str, true
		}
	}
	return "", false
}

// twinReentrantFencedAcquire is reentrant_fenced_acquire.lua (its stale
// entries dropped first, see dropStale). It takes
// only owners that cannot be one of the hash's '@' fields and non-empty
// entry ids, so the owner's count, the fence field and the entry are three
// fields.
func twinReentrantFencedAcquire(t *twinRun, keys, args []string) (Reply, bool) {
	h, ctr := keys[0], keys[1]
	owner, entry := args[0], "@"+args[2]
	_, ok := ttl(args[1])
	if !ok || h == ctr || strings.HasPrefix(owner, "@") || args[2] == "" ||
		!t.kindOK(h, isHash) || !t.counter(ctr) {
		return Reply{}, false
	}
	if len(args) > 3 && !t.dropStale(h, owner, args[2], args[3]) {
		return Reply{}, false
	}
	free := t.read(cmdExists, "EXISTS", h).Int == 0
	if !free && t.read(cmdHExists, "HEXISTS", h, owner).Int == 0 {
		return Array(t.n.heldFor(t.now, h), Int(0)), true
	}
	var fence *int64
	if !free {
		count, okCount := t.field(h, owner)
		f, okFence := t.field(h, "@")
		if !okCount || !okFence || count == nil {
			return Reply{}, false
		}
		if t.read(cmdHExists, "HEXISTS", h, entry).Int == 1 {
			return luaArray(count, f), true
		}
		fence = f
	} else {
		f := t.write(cmdIncr, "INCR", ctr).Int
		t.write(cmdHIncrBy, "HINCRBY", h, "@", itoa(f))
		fence = &f
	}
	t.write(cmdHIncrBy, "HINCRBY", h, entry, "1")
	n := t.write(cmdHIncrBy, "HINCRBY", h, owner, "1").Int
	t.write(pexpire, "PEXPIRE", h, args[1])
	return luaArray(&n, fence), true
}

// dropStale is the scripts' first step (ARGV[4], the prefix of the
// acquiring value's own entries): the owner's entries under prefix other
// than entry are removed one HDEL each, taken off its count, and the hash
// deleted once the count is down to zero. It declines (false, nothing
// written) when the count is not a small integer.
func (t *twinRun) dropStale(h, owner, entry, prefix string) bool {
	if prefix == "" || t.read(cmdHExists, "HEXISTS", h, owner).Int == 0 {
		return true
	}
	p, own := "@"+prefix, "@"+entry
	var stale []string
	for _, f := range sortedFields(t.n.get(t.now, h).hash) {
		if f[0] != own && strings.HasPrefix(f[0], p) {
			stale = append(stale, f[0])
		}
	}
	if len(stale) == 0 {
		return true
	}
	if _, ok := t.field(h, owner); !ok {
		return false
	}
	for _, f := range stale {
		t.write(cmdHDel, "HDEL", h, f)
	}
	if t.write(cmdHIncrBy, "HINCRBY", h, owner, itoa(-int64(len(stale)))).Int <= 0 {
		t.write(cmdDel, "DEL", h)
	}
	return true
}

// field is tonumber(redis.call('HGET', h, f)): nil for a missing field; ok
// false for a value the guards do not take (not a small integer).
func (t *twinRun) field(h, f string) (*int64, bool) {
	r := t.read(cmdHGet, "HGET", h, f)
	if r.IsNil() {
		return nil, true
	}
	v, ok := small(r.Str)
	return &v, ok
}

// luaArray is the reply of a Lua table of numbers: it ends at the first
// nil.
func luaArray(vs ...*int64) Reply {
	out := make([]Reply, 0, len(vs))
	for _, v := range vs {
		if v == nil {
			break
		}
		out = append(out, Int(*v))
	}
	return Array(out...)
}
