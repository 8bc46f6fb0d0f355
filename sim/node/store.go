package node

import (
	"slices"
	"strings"
)

// Store is a node's key space. Times are the node's wall clock, in
// nanoseconds since vclock.Epoch; a store compares TTLs against the time it
// is given, never against a clock of its own.
type Store interface {
	// Do runs one command that is not a script command.
	Do(now int64, args []string) Reply
	// Eval runs the Lua script src with keys and args.
	Eval(now int64, src string, keys, args []string) Reply
	// Dump returns the state of keys (every key when keys is nil), sorted
	// by key; a missing or expired key is reported with Type "none".
	Dump(now int64, keys []string) []KeyState
	// Load makes each key what its state says (deleting it for "none").
	Load(now int64, ks []KeyState)
	// Flush deletes every key.
	Flush()
	// Close releases the store's resources.
	Close()
}

// KeyState is one key's type, value and expiry: what replication ships
// and what a backend migration copies.
type KeyState struct {
	Key      string
	Type     string      // "string", "hash", "set", "zset", "list" or "none"
	Str      string      // for "string"
	Fields   [][2]string // for "hash": field, value; for "zset": member, score; sorted
	Members  []string    // for "set", sorted; for "list", in order
	ExpireAt int64       // node wall time in ms since vclock.Epoch; 0 = no TTL
}

// nowMS is the millisecond clock Redis compares expiries with.
func nowMS(now int64) int64 {
	ms := now / 1e6
	if now%1e6 < 0 {
		ms--
	}
	return ms
}

func sortedUnique(keys []string) []string {
	out := slices.Clone(keys)
	slices.Sort(out)
	return slices.Compact(out)
}

func sortedPairs(fs [][2]string) [][2]string {
	slices.SortFunc(fs, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	return fs
}
