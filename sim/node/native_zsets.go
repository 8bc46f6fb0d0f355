package node

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The native store's sorted sets (ZADD, ZSCORE, ZRANGE, ZRANK, ZREM, ZCARD):
// members ordered by score, then by bytes; scores written as Redis 7.0
// writes them.

// zsetOf is setOf for sorted sets.
func (n *Native) zsetOf(now int64, key string, create bool) (map[string]float64, Reply, bool) {
	e := n.get(now, key)
	switch {
	case e == nil && create:
		e = &entry{zset: map[string]float64{}}
		n.keys[key] = e
	case e == nil:
		return nil, Reply{}, true
	case e.zset == nil:
		return nil, errWrongType, false
	}
	return e.zset, Reply{}, true
}

func cmdZAdd(n *Native, now int64, args []string) Reply {
	if len(args) < 4 {
		return errArgs("zadd")
	}
	if len(args)%2 != 0 {
		return errSyntax
	}
	scores := make([]float64, 0, (len(args)-2)/2)
	for i := 2; i < len(args); i += 2 {
		f, ok := parseScore(args[i])
		if !ok {
			return Error("ERR value is not a valid float")
		}
		scores = append(scores, f)
	}
	z, r, ok := n.zsetOf(now, args[1], true)
	if !ok {
		return r
	}
	var c int64
	for i, f := range scores {
		m := args[3+2*i]
		if _, in := z[m]; !in {
			c++
		}
		z[m] = f
	}
	return Int(c)
}

func cmdZScore(n *Native, now int64, args []string) Reply {
	if len(args) != 3 {
		return errArgs("zscore")
	}
	z, r, ok := n.zsetOf(now, args[1], false)
	if !ok {
		return r
	}
	if f, in := z[args[2]]; in {
		return Bulk(formatScore(f))
	}
	return Nil()
}

func cmdZRange(n *Native, now int64, args []string) Reply {
	if len(args) != 4 && len(args) != 5 {
		return errArgs("zrange")
	}
	start, ok1 := parseInt(args[2])
	stop, ok2 := parseInt(args[3])
	if !ok1 || !ok2 {
		return errNotInt
	}
	z, r, ok := n.zsetOf(now, args[1], false)
	if !ok {
		return r
	}
	ms := sortedByScore(z)
	lo, hi := rangeIndexes(start, stop, int64(len(ms)))
	out := []Reply{}
	for _, m := range ms[lo:hi] {
		out = append(out, Bulk(m))
		if len(args) == 5 {
			out = append(out, Bulk(formatScore(z[m])))
		}
	}
	return Array(out...)
}

func cmdZRank(n *Native, now int64, args []string) Reply {
	if len(args) != 3 {
		return errArgs("zrank")
	}
	z, r, ok := n.zsetOf(now, args[1], false)
	if !ok {
		return r
	}
	s, in := z[args[2]]
	if !in {
		return Nil()
	}
	return Int(zrank(z, args[2], s))
}

// zrank is the rank of member m, of score s, in z: the members ordered
// before it (by score, then by bytes), counted without sorting.
func zrank(scores map[string]float64, m string, s float64) int64 {
	var r int64
	for o, os := range scores {
		if os < s || (os == s && o < m) {
			r++
		}
	}
	return r
}

// zfirst is the member ZRANGE key 0 0 returns (false for an empty set),
// found without sorting.
func zfirst(zset map[string]float64) (string, bool) {
	var first string
	var fs float64
	found := false
	for m, s := range zset {
		if !found || s < fs || (s == fs && m < first) {
			first, fs, found = m, s, true
		}
	}
	return first, found
}

func cmdZRem(n *Native, now int64, args []string) Reply {
	if len(args) < 3 {
		return errArgs("zrem")
	}
	z, r, ok := n.zsetOf(now, args[1], false)
	if !ok || z == nil {
		return zeroUnlessError(r)
	}
	var c int64
	for _, m := range args[2:] {
		if _, in := z[m]; in {
			delete(z, m)
			c++
		}
	}
	n.dropEmpty(args[1])
	return Int(c)
}

func cmdZCard(n *Native, now int64, args []string) Reply {
	if len(args) != 2 {
		return errArgs("zcard")
	}
	z, r, ok := n.zsetOf(now, args[1], false)
	if !ok {
		return r
	}
	return Int(int64(len(z)))
}

// rangeIndexes turns Redis's inclusive start/stop (negative from the end)
// into a half-open slice range clamped to size.
func rangeIndexes(start, stop, size int64) (int64, int64) {
	if start < 0 {
		start = max(size+start, 0)
	}
	if stop < 0 {
		stop = size + stop
	}
	stop = min(stop, size-1)
	if start > stop || start >= size {
		return 0, 0
	}
	return start, stop + 1
}

// parseScore parses a sorted-set score as Redis does (inf and -inf too).
func parseScore(s string) (float64, bool) {
	switch strings.ToLower(s) {
	case "inf", "+inf":
		return math.Inf(1), true
	case "-inf":
		return math.Inf(-1), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// formatScore writes a score as Redis 7.0 does (%.17g, inf, -inf).
func formatScore(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'g', 17, 64)
}

// sortedByScore lists z's members by score, then by bytes (scores are
// never NaN: parseScore refuses it).
func sortedByScore(z map[string]float64) []string {
	type scored struct {
		m string
		s float64
	}
	ps := make([]scored, 0, len(z))
	for m, s := range z {
		ps = append(ps, scored{m, s})
	}
	slices.SortFunc(ps, func(a, b scored) int {
		if c := cmp.Compare(a.s, b.s); c != 0 {
			return c
		}
		return strings.Compare(a.m, b.m)
	})
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.m
	}
	return out
}
