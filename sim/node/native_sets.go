package node

import (
	"slices"
	"strings"
)

// The native store's sets (SADD, SREM, SMEMBERS, SISMEMBER, SCARD; sorted
// sets are in native_zsets.go) and the few string and key commands beyond
// those the core scripts use (TYPE, GETRANGE): what the fair lock, the
// read-write lock, the semaphore and the reference libraries' scripts call.
// Members come back sorted (scores, then bytes, for sorted sets), so a run
// never depends on map order. Options these do not
// implement (ZADD NX/GT/CH/..., ZRANGE BYSCORE/REV/LIMIT) send the node to
// miniredis, like any unknown command.

// collectionCmds are looked up after nativeCmds.
var collectionCmds = map[string]nativeCmd{
	"SADD": cmdSAdd, "SREM": cmdSRem, "SMEMBERS": cmdSMembers, "SISMEMBER": cmdSIsMember,
	"SCARD": cmdSCard, "ZADD": cmdZAdd, "ZSCORE": cmdZScore, "ZRANGE": cmdZRange,
	"ZRANK": cmdZRank, "ZREM": cmdZRem, "ZCARD": cmdZCard, "TYPE": cmdType,
	"GETRANGE": cmdGetRange,
}

// lookupCmd returns the native implementation of an upper-case command.
func lookupCmd(name string) nativeCmd {
	if c := nativeCmds[name]; c != nil {
		return c
	}
	return collectionCmds[name]
}

// collectionSupported refuses the ZADD and ZRANGE forms with options.
func collectionSupported(args []string) bool {
	switch Upper(args[0]) {
	case "ZADD":
		if len(args) > 2 {
			_, ok := parseScore(args[2])
			return ok || len(args) == 3
		}
	case "ZRANGE":
		return len(args) <= 4 || (len(args) == 5 && strings.EqualFold(args[4], "WITHSCORES"))
	case "LRANGE":
		return listSupported(args)
	}
	return true
}

// setOf returns key's set, creating it if create; a key of another type is
// WRONGTYPE.
func (n *Native) setOf(now int64, key string, create bool) (map[string]struct{}, Reply, bool) {
	e := n.get(now, key)
	switch {
	case e == nil && create:
		e = &entry{set: map[string]struct{}{}}
		n.keys[key] = e
	case e == nil:
		return nil, Reply{}, true
	case e.set == nil:
		return nil, errWrongType, false
	}
	return e.set, Reply{}, true
}

// dropEmpty deletes key if its collection has no members left, as Redis does.
func (n *Native) dropEmpty(key string) {
	e := n.keys[key]
	if e != nil && ((e.set != nil && len(e.set) == 0) || (e.zset != nil && len(e.zset) == 0)) {
		delete(n.keys, key)
	}
}

func cmdSAdd(n *Native, now int64, args []string) Reply {
	if len(args) < 3 {
		return errArgs("sadd")
	}
	s, r, ok := n.setOf(now, args[1], true)
	if !ok {
		return r
	}
	var c int64
	for _, m := range args[2:] {
		if _, in := s[m]; !in {
			s[m] = struct{}{}
			c++
		}
	}
	return Int(c)
}

func cmdSRem(n *Native, now int64, args []string) Reply {
	if len(args) < 3 {
		return errArgs("srem")
	}
	s, r, ok := n.setOf(now, args[1], false)
	if !ok || s == nil {
		return zeroUnlessError(r)
	}
	var c int64
	for _, m := range args[2:] {
		if _, in := s[m]; in {
			delete(s, m)
			c++
		}
	}
	n.dropEmpty(args[1])
	return Int(c)
}

func cmdSMembers(n *Native, now int64, args []string) Reply {
	if len(args) != 2 {
		return errArgs("smembers")
	}
	s, r, ok := n.setOf(now, args[1], false)
	if !ok {
		return r
	}
	out := make([]Reply, 0, len(s))
	for _, m := range sortedMembers(s) {
		out = append(out, Bulk(m))
	}
	return Array(out...)
}

func cmdSIsMember(n *Native, now int64, args []string) Reply {
	if len(args) != 3 {
		return errArgs("sismember")
	}
	s, r, ok := n.setOf(now, args[1], false)
	if !ok {
		return r
	}
	if _, in := s[args[2]]; in {
		return Int(1)
	}
	return Int(0)
}

func cmdSCard(n *Native, now int64, args []string) Reply {
	if len(args) != 2 {
		return errArgs("scard")
	}
	s, r, ok := n.setOf(now, args[1], false)
	if !ok {
		return r
	}
	return Int(int64(len(s)))
}

func cmdType(n *Native, now int64, args []string) Reply {
	if len(args) != 2 {
		return errArgs("type")
	}
	e := n.get(now, args[1])
	switch {
	case e == nil:
		return Status("none")
	case e.hash != nil:
		return Status("hash")
	case e.set != nil:
		return Status("set")
	case e.zset != nil:
		return Status("zset")
	case e.list != nil:
		return Status("list")
	}
	return Status("string")
}

func cmdGetRange(n *Native, now int64, args []string) Reply {
	if len(args) != 4 {
		return errArgs("getrange")
	}
	start, ok1 := parseInt(args[2])
	end, ok2 := parseInt(args[3])
	if !ok1 || !ok2 {
		return errNotInt
	}
	v := n.getStr(now, args[1])
	if v.Kind != KindBulk {
		if v.IsError() {
			return v
		}
		return Bulk("")
	}
	return Bulk(substr(v.Str, start, end))
}

// substr is GETRANGE's inclusive range: negative offsets count from the
// end, a negative end after that means 0, and an end past the string is
// its last byte.
func substr(s string, start, end int64) string {
	size := int64(len(s))
	if size == 0 || (start < 0 && end < 0 && start > end) {
		return ""
	}
	if start < 0 {
		start = max(size+start, 0)
	}
	if end < 0 {
		end = max(size+end, 0)
	}
	end = min(end, size-1)
	if start > end {
		return ""
	}
	return s[start : end+1]
}

func sortedMembers(s map[string]struct{}) []string {
	out := make([]string, 0, len(s))
	for m := range s {
		out = append(out, m)
	}
	slices.Sort(out)
	return out
}

// collectionState is the KeyState of a set or sorted-set entry.
func collectionState(key string, e *entry) KeyState {
	if e.set != nil {
		return KeyState{Key: key, Type: "set", Members: sortedMembers(e.set), ExpireAt: e.expireAt}
	}
	fs := make([][2]string, 0, len(e.zset))
	for m, f := range e.zset {
		fs = append(fs, [2]string{m, formatScore(f)})
	}
	return KeyState{Key: key, Type: "zset", Fields: sortedPairs(fs), ExpireAt: e.expireAt}
}

// collectionEntry is the entry a set or sorted-set KeyState describes.
func collectionEntry(s KeyState) *entry {
	if s.Type == "set" {
		set := make(map[string]struct{}, len(s.Members))
		for _, m := range s.Members {
			set[m] = struct{}{}
		}
		return &entry{set: set, expireAt: s.ExpireAt}
	}
	z := make(map[string]float64, len(s.Fields))
	for _, f := range s.Fields {
		z[f[0]], _ = parseScore(f[1])
	}
	return &entry{zset: z, expireAt: s.ExpireAt}
}

func init() {
	for name := range collectionCmds {
		commonNames[name] = name
		commonNames[strings.ToLower(name)] = name
	}
	for _, o := range []string{"WITHSCORES"} {
		commonNames[o], commonNames[strings.ToLower(o)] = o, o
	}
}
