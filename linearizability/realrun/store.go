package realrun

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Store is the protected counter the clients read and write. Read and
// Write are separate calls: only the lock keeps a read-then-write atomic.
type Store interface {
	// Read returns the counter (0 before any write).
	Read(ctx context.Context) (int64, error)
	// Write sets the counter to value and reports whether the store
	// accepted it (a fencing store rejects a token below the highest it
	// has accepted).
	Write(ctx context.Context, fence, value int64) (bool, error)
}

// MemoryStore is a counter in process memory. With Fencing it accepts a
// write only if its token is at least the highest accepted.
type MemoryStore struct {
	Fencing bool

	mu      sync.Mutex
	value   int64
	highest int64
}

// Read returns the counter.
func (s *MemoryStore) Read(context.Context) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.value, nil
}

// Write sets the counter if the store accepts fence.
func (s *MemoryStore) Write(_ context.Context, fence, value int64) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Fencing && fence < s.highest {
		return false, nil
	}
	s.value, s.highest = value, max(s.highest, fence)
	return true, nil
}

// RedisClient is what RedisStore needs of a go-redis client.
type RedisClient interface {
	redis.Scripter
	Get(ctx context.Context, key string) *redis.StringCmd
}

// RedisStore is a counter kept in Redis under Key (and, with Fencing, the
// highest accepted token under Key+":fence", written by one Lua script
// with the value).
type RedisStore struct {
	R       RedisClient
	Key     string
	Fencing bool
}

var (
	storeWrite = redis.NewScript(`redis.call('SET', KEYS[1], ARGV[2]) return 1`)
	// fencedWrite: KEYS[1] value, KEYS[2] highest token; ARGV[1] token,
	// ARGV[2] value. Accepts the write only if the token is not below
	// the highest accepted.
	fencedWrite = redis.NewScript(`
local hi = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[1]) < hi then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[1])
return 1`)
)

// Read GETs the counter.
func (s *RedisStore) Read(ctx context.Context) (int64, error) {
	v, err := s.R.Get(ctx, s.Key).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return v, err
}

// Write sets the counter, through the fencing script when Fencing.
func (s *RedisStore) Write(ctx context.Context, fence, value int64) (bool, error) {
	script := storeWrite
	if s.Fencing {
		script = fencedWrite
	}
	n, err := script.Run(ctx, s.R, []string{s.Key, s.Key + ":fence"}, fence, value).Int64()
	return n == 1, err
}

// sleep waits d, or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
