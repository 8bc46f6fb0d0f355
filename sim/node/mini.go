package node

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"

	"github.com/locksim/locksim/sim/vclock"
)

// Mini is a store backed by miniredis, driven in-process: every command is
// dispatched to it directly (no connection, no goroutine per command) after
// setting its clock to the node's time, with ClockTTL on, so TTLs follow
// the node's clock.
//
// One difference from Redis remains: miniredis keeps TTLs as durations, so
// a node clock stepped back does not lengthen them (Redis, which stores
// absolute expiry times, would). Native follows Redis.
type Mini struct {
	m   *miniredis.Miniredis
	buf bytes.Buffer
	w   *bufio.Writer
	r   *bufio.Reader
}

var _ Store = (*Mini)(nil)

// NewMini starts a miniredis without a listener, its clock at node time now.
func NewMini(now int64) (*Mini, error) {
	m := miniredis.NewMiniRedis()
	conn, err := m.Dial() // starts the server without a listener
	if err != nil {
		return nil, fmt.Errorf("node: start miniredis: %w", err)
	}
	_ = conn.Close()
	m.SetTime(miniTime(now))
	m.ClockTTL(true)
	s := &Mini{m: m}
	s.w = bufio.NewWriter(&s.buf)
	s.r = bufio.NewReader(&s.buf)
	return s, nil
}

// Do dispatches one command at node time now.
func (s *Mini) Do(now int64, args []string) Reply {
	s.m.SetTime(miniTime(now))
	s.buf.Reset()
	s.r.Reset(&s.buf)
	peer := server.NewPeer(s.w)
	s.m.Server().Dispatch(peer, args)
	peer.Flush()
	v, err := server.ParseReply(s.r)
	if err != nil {
		return Error(err.Error())
	}
	return fromMini(v)
}

func fromMini(v any) Reply {
	switch x := v.(type) {
	case nil:
		return Nil()
	case int:
		return Int(int64(x))
	case string:
		return Bulk(x)
	case server.Simple:
		return Status(string(x))
	case []interface{}:
		out := make([]Reply, len(x))
		for i, e := range x {
			out[i] = fromMini(e)
		}
		return Array(out...)
	}
	return Error(fmt.Sprintf("ERR unexpected miniredis reply %T", v))
}

// Eval runs src with EVAL.
func (s *Mini) Eval(now int64, src string, keys, args []string) Reply {
	cmd := make([]string, 0, 3+len(keys)+len(args))
	cmd = append(cmd, "EVAL", src, strconv.Itoa(len(keys)))
	cmd = append(append(cmd, keys...), args...)
	return s.Do(now, cmd)
}

// Dump reads each key's state with TYPE, GET/HGETALL and PTTL.
func (s *Mini) Dump(now int64, keys []string) []KeyState {
	if keys == nil {
		for _, k := range s.Do(now, []string{"KEYS", "*"}).Arr {
			keys = append(keys, k.Str)
		}
	}
	ks := make([]KeyState, 0, len(keys))
	for _, k := range sortedUnique(keys) {
		ks = append(ks, s.dumpKey(now, k))
	}
	return ks
}

func (s *Mini) dumpKey(now int64, k string) KeyState {
	st := KeyState{Key: k, Type: s.Do(now, []string{"TYPE", k}).Str}
	switch st.Type {
	case "string":
		st.Str = s.Do(now, []string{"GET", k}).Str
	case "hash":
		st.Fields = pairs(s.Do(now, []string{"HGETALL", k}).Arr)
	case "zset":
		st.Fields = pairs(s.Do(now, []string{"ZRANGE", k, "0", "-1", "WITHSCORES"}).Arr)
	case "set":
		for _, m := range s.Do(now, []string{"SMEMBERS", k}).Arr {
			st.Members = append(st.Members, m.Str)
		}
		st.Members = sortedUnique(st.Members)
	case "list":
		for _, m := range s.Do(now, []string{"LRANGE", k, "0", "-1"}).Arr {
			st.Members = append(st.Members, m.Str)
		}
	default: // streams are not used by lock patterns
		return KeyState{Key: k, Type: "none"}
	}
	if ttl := s.Do(now, []string{"PTTL", k}); ttl.Int >= 0 {
		// The exact TTL left (PTTL rounds it down), so that ExpireAt is the
		// absolute millisecond a Native store would hold.
		st.ExpireAt = nowMS(now + int64(s.m.TTL(k)))
	}
	return st
}

func pairs(arr []Reply) [][2]string {
	var out [][2]string
	for i := 0; i+1 < len(arr); i += 2 {
		out = append(out, [2]string{arr[i].Str, arr[i+1].Str})
	}
	return sortedPairs(out)
}

// Load writes each key's state (DEL, then SET/HSET/ZADD/SADD and PEXPIRE).
func (s *Mini) Load(now int64, ks []KeyState) {
	for _, st := range ks {
		s.Do(now, []string{"DEL", st.Key})
		switch st.Type {
		case "string":
			s.Do(now, []string{"SET", st.Key, st.Str})
		case "hash":
			for _, f := range st.Fields {
				s.Do(now, []string{"HSET", st.Key, f[0], f[1]})
			}
		case "zset":
			for _, f := range st.Fields {
				s.Do(now, []string{"ZADD", st.Key, f[1], f[0]})
			}
		case "set":
			s.Do(now, append([]string{"SADD", st.Key}, st.Members...))
		case "list":
			s.Do(now, append([]string{"RPUSH", st.Key}, st.Members...))
		default:
			continue
		}
		if st.ExpireAt != 0 {
			s.Do(now, []string{"PEXPIRE", st.Key, strconv.FormatInt(st.ExpireAt-nowMS(now), 10)})
		}
	}
}

// Flush deletes every key. (miniredis' own script cache does not matter:
// the Node keeps the cache clients see, and always hands Eval the source.)
func (s *Mini) Flush() { s.m.FlushAll() }

// Close stops miniredis and waits for its goroutines.
func (s *Mini) Close() { s.m.Close() }

// miniTime is node time now as miniredis's clock, in whole milliseconds:
// Redis (and Native) stamp an expiry and read a PTTL in whole milliseconds
// of their clock, so a key expires, and a script's PTTL reads, at the same
// millisecond on both backends (a refused acquisition returns its PTTL).
func miniTime(now int64) time.Time {
	return vclock.Epoch.Add(time.Duration(now).Truncate(time.Millisecond))
}
