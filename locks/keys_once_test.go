package locks

import (
	"context"
	"testing"
	"time"
	"unsafe"

	"github.com/redis/go-redis/v9"
)

// keyRecorder is a Redis that records the KEYS of every script call it
// passes on.
type keyRecorder struct {
	*redis.Client
	keys [][]string
}

func (k *keyRecorder) Eval(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	k.keys = append(k.keys, keys)
	return k.Client.Eval(ctx, script, keys, args...)
}

func (k *keyRecorder) EvalSha(ctx context.Context, sha string, keys []string, args ...any) *redis.Cmd {
	k.keys = append(k.keys, keys)
	return k.Client.EvalSha(ctx, sha, keys, args...)
}

// TestKeysBuiltOnce: a lock's key names are built when it is made, not at
// every call (Fair built its four keys at each poll and release, RWLock
// its four at each acquisition, Fenced its fence key at each Acquire):
// every script call's KEYS are the very strings of the first calls, byte
// for byte the same memory.
func TestKeysBuiltOnce(t *testing.T) {
	ctx := context.Background()
	o := Options{TTL: 10 * time.Second}
	for _, tc := range []struct {
		name string
		make func(r Redis) (Locker, error)
	}{
		{"fair", func(r Redis) (Locker, error) { return NewFair(r, "k-fair", o) }},
		{"fair-fenced", func(r Redis) (Locker, error) {
			return NewFair(r, "k-fairf", Options{TTL: o.TTL, Fencing: true})
		}},
		{"fenced", func(r Redis) (Locker, error) { return NewFenced(r, "k-fenced", o) }},
		{"rwlock-read", func(r Redis) (Locker, error) { rw, err := NewRWLock(r, "k-rw", o); return rw.Reader(), err }},
		{"rwlock-write", func(r Redis) (Locker, error) { rw, err := NewRWLock(r, "k-rww", o); return rw.Writer(), err }},
		{"semaphore", func(r Redis) (Locker, error) { return NewSemaphore(r, "k-sem", 2, o) }},
		{"reentrant", func(r Redis) (Locker, error) { return NewReentrant(r, "k-re", Options{TTL: o.TTL, Owner: "o1"}) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &keyRecorder{Client: extMini(t).client(t)}
			l, err := tc.make(rec)
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				lease, err := l.Acquire(ctx)
				if err != nil {
					t.Fatalf("Acquire = %v", err)
				}
				if err := l.Release(ctx, lease); err != nil {
					t.Fatalf("Release = %v", err)
				}
			}
			first := make(map[string]*byte)
			for _, keys := range rec.keys {
				for _, k := range keys {
					p, seen := first[k]
					if !seen {
						first[k] = unsafe.StringData(k)
					} else if p != unsafe.StringData(k) {
						t.Errorf("key %q built anew for a later call, want the string built once", k)
						return
					}
				}
			}
		})
	}
}
