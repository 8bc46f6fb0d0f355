package node

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is a RESP reply type.
type Kind uint8

// Reply kinds.
const (
	KindNil Kind = iota
	KindInt
	KindBulk
	KindStatus
	KindArray
	KindError
)

// Reply is one RESP reply.
type Reply struct {
	Kind Kind
	Int  int64
	Str  string // bulk, status, or error message
	Arr  []Reply
}

// Constructors.
func Int(n int64) Reply               { return Reply{Kind: KindInt, Int: n} }
func Bulk(s string) Reply             { return Reply{Kind: KindBulk, Str: s} }
func Status(s string) Reply           { return Reply{Kind: KindStatus, Str: s} }
func Error(msg string) Reply          { return Reply{Kind: KindError, Str: msg} }
func Array(rs ...Reply) Reply         { return Reply{Kind: KindArray, Arr: rs} }
func Nil() Reply                      { return Reply{} }
func (r Reply) IsError() bool         { return r.Kind == KindError }
func (r Reply) IsNil() bool           { return r.Kind == KindNil }
func errorf(f string, a ...any) Reply { return Error(fmt.Sprintf(f, a...)) }

// Common error replies, worded as Redis 7 words them.
var (
	errWrongType = Error("WRONGTYPE Operation against a key holding the wrong kind of value")
	errNotInt    = Error("ERR value is not an integer or out of range")
	errSyntax    = Error("ERR syntax error")
	errNoScript  = Error("NOSCRIPT No matching script. Please use EVAL.")
)

func errArgs(cmd string) Reply {
	return errorf("ERR wrong number of arguments for '%s' command", strings.ToLower(cmd))
}

// String renders r compactly for traces: 1, "v", (nil), OK, [a b], ERR ….
func (r Reply) String() string {
	switch r.Kind {
	case KindNil:
		return "(nil)"
	case KindInt:
		return strconv.FormatInt(r.Int, 10)
	case KindBulk:
		return strconv.Quote(r.Str)
	case KindStatus:
		return r.Str
	case KindError:
		return "(error) " + r.Str
	}
	parts := make([]string, len(r.Arr))
	for i, x := range r.Arr {
		parts[i] = x.String()
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// Equal reports whether two replies are the same; any two error replies
// are equal (servers word, and wrap, script errors differently).
func (r Reply) Equal(o Reply) bool {
	if r.Kind != o.Kind {
		return false
	}
	switch r.Kind {
	case KindInt:
		return r.Int == o.Int
	case KindBulk, KindStatus:
		return r.Str == o.Str
	case KindArray:
		if len(r.Arr) != len(o.Arr) {
			return false
		}
		for i := range r.Arr {
			if !r.Arr[i].Equal(o.Arr[i]) {
				return false
			}
		}
	}
	return true
}

// parseInt parses a Redis integer argument strictly, as Redis's string2ll
// does: an optional minus sign, no leading zeros, no spaces, no plus sign.
func parseInt(s string) (int64, bool) {
	if s == "" || len(s) > 20 {
		return 0, false
	}
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || (digits[0] == '0' && (len(digits) > 1 || len(s) > 1)) {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// commonNames maps the spellings clients send to upper case, so that the
// hot path does not allocate.
var commonNames = map[string]string{}

func init() {
	for _, n := range []string{"SET", "GET", "DEL", "EXISTS", "PEXPIRE", "EXPIRE", "PTTL", "INCR",
		"HEXISTS", "HGET", "HINCRBY", "HGETALL", "EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "SCRIPT",
		"NX", "XX", "PX", "EX", "KEEPTTL", "LOAD", "FLUSH", "TYPE", "KEYS", "PING", "TTL", "UNLINK"} {
		commonNames[n] = n
		commonNames[strings.ToLower(n)] = n
	}
}

// Upper returns s in upper case (a command or option name), without
// allocating for the names the patterns use.
func Upper(s string) string {
	if u, ok := commonNames[s]; ok {
		return u
	}
	return strings.ToUpper(s)
}
