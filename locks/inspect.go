package locks

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// Kind names a key layout Inspect can read.
type Kind string

// The layouts, by the patterns that use them.
const (
	KindBasic     Kind = "basic"     // Basic, Watchdog, Redlock (one node): SET key token
	KindReentrant Kind = "reentrant" // Reentrant, Service: hash {owner: count}
	KindFenced    Kind = "fenced"    // Fenced: {name}:lock and {name}:fence
	KindFair      Kind = "fair"      // Fair: lock, queue, waiters
	KindRW        Kind = "rwlock"    // RWLock: writer, readers, intent
	KindSemaphore Kind = "semaphore" // Semaphore: permits
)

// Kinds lists every Kind.
var Kinds = []Kind{KindBasic, KindReentrant, KindFenced, KindFair, KindRW, KindSemaphore}

// Holder is one current holder of a lock.
type Holder struct {
	Token string        // owner token (reentrant: owner id)
	TTL   time.Duration // remaining on the server
	Count int           // hold count: re-entries for reentrant locks, permits for a semaphore, else 1
	Read  bool          // a shared (reader's) holding
	// Metadata is the Options.Metadata its holder stored (Basic, Watchdog,
	// Fenced): the part of Token after the token proper; "" if none.
	Metadata string
}

// Info is what Inspect saw of a lock at one moment.
type Info struct {
	Key     string // the key or name given to Inspect
	Kind    Kind
	Holders []Holder // sorted by token; empty when the lock is free
	// Queue is the number of live waiters: the fair lock's queue, or 1 while
	// a writer waits for an RWLock's readers to drain.
	Queue int
	// Fence is the last fencing token issued (Fenced), else 0.
	Fence int64
}

// Held reports whether anyone holds the lock.
func (i Info) Held() bool { return len(i.Holders) > 0 }

// Inspect reads the state of a lock without changing it: its holders with
// their remaining TTL and hold count, its wait queue length, its fence.
// key is the lock key for KindBasic and KindReentrant, and the name given
// to the constructor for the other kinds. Expired members (a vanished
// waiter, reader or permit) are not counted.
func Inspect(ctx context.Context, r Redis, key string, kind Kind) (Info, error) {
	if isNil(r) {
		return Info{}, &OptionError{"Redis", nilName(r), "must be set"}
	}
	keys, prefix, err := inspectKeys(key, kind)
	if err != nil {
		return Info{}, err
	}
	vals, err := inspectScript.Run(ctx, r, keys, string(kind), prefix).Slice()
	if err != nil {
		return Info{}, wrap("inspect", key, err)
	}
	info, err := parseInspect(vals)
	if err != nil {
		return Info{}, wrap("inspect", key, err)
	}
	info.Key, info.Kind = key, kind
	sort.Slice(info.Holders, func(i, j int) bool { return info.Holders[i].Token < info.Holders[j].Token })
	return info, nil
}

func inspectKeys(key string, kind Kind) ([]string, string, error) {
	if key == "" {
		return nil, "", &OptionError{"key", `""`, "must not be empty"}
	}
	switch kind {
	case KindBasic, KindReentrant:
		return []string{key}, "", nil
	case KindFenced:
		return []string{FencedLockKey(key), FencedCounterKey(key)}, "", nil
	case KindFair:
		lock, queue, _, prefix := FairKeys(key)
		return []string{lock, queue}, prefix, nil
	case KindRW:
		w, rs, in, prefix := RWKeys(key)
		return []string{w, rs, in}, prefix, nil
	case KindSemaphore:
		permits, prefix := SemaphoreKeys(key)
		return []string{permits}, prefix, nil
	}
	return nil, "", &OptionError{"kind", fmt.Sprintf("%q", kind), fmt.Sprintf("must be one of %v", Kinds)}
}

// parseInspect decodes inspect.lua's reply: {queue, fence, then token,
// pttl, count, read for each holder}.
func parseInspect(vals []any) (Info, error) {
	if len(vals) < 2 || (len(vals)-2)%4 != 0 {
		return Info{}, fmt.Errorf("inspect: malformed reply of %d values", len(vals))
	}
	var info Info
	q, _ := vals[0].(int64)
	info.Queue = int(q)
	info.Fence, _ = vals[1].(int64)
	for i := 2; i < len(vals); i += 4 {
		tok, _ := vals[i].(string)
		pttl, _ := vals[i+1].(int64)
		n, _ := vals[i+2].(int64)
		read, _ := vals[i+3].(int64)
		meta, _ := splitValue(tok)
		info.Holders = append(info.Holders, Holder{
			Token: tok, TTL: time.Duration(pttl) * time.Millisecond, Count: int(n), Read: read == 1, Metadata: meta,
		})
	}
	return info, nil
}
