package node

import (
	"math"
	"strings"
)

type nativeCmd func(n *Native, now int64, args []string) Reply

var nativeCmds map[string]nativeCmd

func init() {
	nativeCmds = map[string]nativeCmd{
		"SET": cmdSet, "GET": cmdGet, "DEL": cmdDel, "EXISTS": cmdExists,
		"PEXPIRE": cmdExpire(1), "EXPIRE": cmdExpire(1000), "PTTL": cmdPTTL,
		"INCR": cmdIncr, "HEXISTS": cmdHExists, "HGET": cmdHGet,
		"HINCRBY": cmdHIncrBy, "HGETALL": cmdHGetAll, "HDEL": cmdHDel,
	}
}

// setOpts are the SET options the native store implements.
type setOpts struct {
	nx, xx, keepTTL bool
	unit            int64 // 1000 for EX, 1 for PX, 0 for none
	ttl             string
}

func setSupported(args []string) bool {
	for _, a := range args[3:] {
		switch Upper(a) {
		case "EXAT", "PXAT", "GET":
			return false
		}
	}
	return true
}

func parseSet(args []string) (setOpts, Reply, bool) {
	var o setOpts
	for i := 3; i < len(args); i++ {
		switch Upper(args[i]) {
		case "NX":
			o.nx = true
		case "XX":
			o.xx = true
		case "KEEPTTL":
			o.keepTTL = true
		case "EX", "PX":
			if o.unit != 0 || i+1 >= len(args) {
				return o, errSyntax, false
			}
			o.unit = 1
			if strings.EqualFold(args[i], "EX") {
				o.unit = 1000
			}
			i++
			o.ttl = args[i]
		default:
			return o, errSyntax, false
		}
	}
	if (o.nx && o.xx) || (o.keepTTL && o.unit != 0) {
		return o, errSyntax, false
	}
	return o, Reply{}, true
}

func cmdSet(n *Native, now int64, args []string) Reply {
	if len(args) < 3 {
		return errArgs("set")
	}
	o, r, ok := parseSet(args)
	if !ok {
		return r
	}
	var expireAt int64
	if o.unit != 0 {
		v, ok := parseInt(o.ttl)
		if !ok {
			return errNotInt
		}
		if v <= 0 || v > math.MaxInt64/o.unit/2 {
			return Error("ERR invalid expire time in 'set' command")
		}
		expireAt = nowMS(now) + v*o.unit
	}
	return n.set(now, args[1], args[2], o, expireAt)
}

func (n *Native) set(now int64, key, val string, o setOpts, expireAt int64) Reply {
	old := n.get(now, key)
	if (o.nx && old != nil) || (o.xx && old == nil) {
		return Nil()
	}
	if o.keepTTL && old != nil {
		expireAt = old.expireAt
	}
	n.keys[key] = &entry{str: val, expireAt: expireAt}
	return Status("OK")
}

func cmdGet(n *Native, now int64, args []string) Reply {
	if len(args) != 2 {
		return errArgs("get")
	}
	return n.getStr(now, args[1])
}

func (n *Native) getStr(now int64, key string) Reply {
	e := n.get(now, key)
	switch {
	case e == nil:
		return Nil()
	case !e.isString():
		return errWrongType
	}
	return Bulk(e.str)
}

func cmdDel(n *Native, now int64, args []string) Reply {
	if len(args) < 2 {
		return errArgs("del")
	}
	var c int64
	for _, k := range args[1:] {
		c += n.del(now, k)
	}
	return Int(c)
}

func (n *Native) del(now int64, key string) int64 {
	if n.get(now, key) == nil {
		return 0
	}
	delete(n.keys, key)
	return 1
}

func cmdExists(n *Native, now int64, args []string) Reply {
	if len(args) < 2 {
		return errArgs("exists")
	}
	var c int64
	for _, k := range args[1:] {
		if n.get(now, k) != nil {
			c++
		}
	}
	return Int(c)
}

// cmdExpire is PEXPIRE (unit 1ms) or EXPIRE (unit 1000ms), without options.
func cmdExpire(unit int64) nativeCmd {
	return func(n *Native, now int64, args []string) Reply {
		if len(args) < 3 {
			return errArgs(args[0])
		}
		if len(args) > 3 {
			return errorf("ERR Unsupported option %s", args[3])
		}
		v, ok := parseInt(args[2])
		if !ok {
			return errNotInt
		}
		if v > math.MaxInt64/unit/2 || v < math.MinInt64/unit/2 {
			return errorf("ERR invalid expire time in '%s' command", strings.ToLower(args[0]))
		}
		return Int(n.expire(now, args[1], v*unit))
	}
}

// expire sets key's TTL to ms from now; a TTL ≤ 0 deletes the key, as in
// Redis. It returns 1 if the key existed.
func (n *Native) expire(now int64, key string, ms int64) int64 {
	e := n.get(now, key)
	if e == nil {
		return 0
	}
	if ms <= 0 {
		delete(n.keys, key)
		return 1
	}
	e.expireAt = nowMS(now) + ms
	return 1
}

func cmdPTTL(n *Native, now int64, args []string) Reply {
	if len(args) != 2 {
		return errArgs("pttl")
	}
	e := n.get(now, args[1])
	switch {
	case e == nil:
		return Int(-2)
	case e.expireAt == 0:
		return Int(-1)
	}
	return Int(max(e.expireAt-nowMS(now), 0))
}

func cmdIncr(n *Native, now int64, args []string) Reply {
	if len(args) != 2 {
		return errArgs("incr")
	}
	return n.incr(now, args[1])
}

func (n *Native) incr(now int64, key string) Reply {
	e := n.get(now, key)
	if e == nil {
		n.keys[key] = &entry{str: "1"}
		return Int(1)
	}
	if !e.isString() {
		return errWrongType
	}
	v, ok := parseInt(e.str)
	if !ok {
		return errNotInt
	}
	if v == math.MaxInt64 {
		return Error("ERR increment or decrement would overflow")
	}
	e.str = itoa(v + 1)
	return Int(v + 1)
}

func cmdHExists(n *Native, now int64, args []string) Reply {
	if len(args) != 3 {
		return errArgs("hexists")
	}
	return n.hexists(now, args[1], args[2])
}

func (n *Native) hexists(now int64, key, field string) Reply {
	e := n.get(now, key)
	switch {
	case e == nil:
		return Int(0)
	case e.hash == nil:
		return errWrongType
	}
	if _, ok := e.hash[field]; ok {
		return Int(1)
	}
	return Int(0)
}

func cmdHDel(n *Native, now int64, args []string) Reply {
	if len(args) < 3 {
		return errArgs("hdel")
	}
	return n.hdel(now, args[1], args[2:]...)
}

// hdel removes fields from the hash at key, and the key once it is empty.
func (n *Native) hdel(now int64, key string, fields ...string) Reply {
	e := n.get(now, key)
	switch {
	case e == nil:
		return Int(0)
	case e.hash == nil:
		return errWrongType
	}
	var c int64
	for _, f := range fields {
		if _, ok := e.hash[f]; ok {
			delete(e.hash, f)
			c++
		}
	}
	if len(e.hash) == 0 {
		n.del(now, key)
	}
	return Int(c)
}

func cmdHGet(n *Native, now int64, args []string) Reply {
	if len(args) != 3 {
		return errArgs("hget")
	}
	e := n.get(now, args[1])
	switch {
	case e == nil:
		return Nil()
	case e.hash == nil:
		return errWrongType
	}
	if v, ok := e.hash[args[2]]; ok {
		return Bulk(v)
	}
	return Nil()
}

func cmdHIncrBy(n *Native, now int64, args []string) Reply {
	if len(args) != 4 {
		return errArgs("hincrby")
	}
	by, ok := parseInt(args[3])
	if !ok {
		return errNotInt
	}
	return n.hincrby(now, args[1], args[2], by)
}

func (n *Native) hincrby(now int64, key, field string, by int64) Reply {
	e := n.get(now, key)
	if e == nil {
		e = &entry{hash: map[string]string{}}
		n.keys[key] = e
	} else if e.hash == nil {
		return errWrongType
	}
	var v int64
	if s, ok := e.hash[field]; ok {
		if v, ok = parseInt(s); !ok {
			return Error("ERR hash value is not an integer")
		}
	}
	if (by > 0 && v > math.MaxInt64-by) || (by < 0 && v < math.MinInt64-by) {
		return Error("ERR increment or decrement would overflow")
	}
	e.hash[field] = itoa(v + by)
	return Int(v + by)
}

func cmdHGetAll(n *Native, now int64, args []string) Reply {
	if len(args) != 2 {
		return errArgs("hgetall")
	}
	e := n.get(now, args[1])
	switch {
	case e == nil:
		return Array()
	case e.hash == nil:
		return errWrongType
	}
	var out []Reply
	for _, f := range sortedFields(e.hash) {
		out = append(out, Bulk(f[0]), Bulk(f[1]))
	}
	return Array(out...)
}
