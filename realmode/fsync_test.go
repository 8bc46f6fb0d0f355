package realmode

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestEverySecKillKeepsAcknowledgedWrites: under appendfsync everysec a
// SIGKILL right after a burst of INCRs (well within the fsync second)
// loses none of them, because redis-server writes the AOF to the page
// cache before it replies; only a host crash loses the unsynced second.
// This is why real mode refuses crash persist=everysec, which the
// simulator models as that host crash.
func TestEverySecKillKeepsAcknowledgedWrites(t *testing.T) {
	needRedis(t)
	s := startT(t, ServerConfig{Name: "n1", Persist: AOFEverySec})
	rdb := redis.NewClient(&redis.Options{Addr: s.Addr(), DialerRetries: 1})
	defer rdb.Close()
	ctx := context.Background()
	const n = 200
	for range n {
		if err := rdb.Incr(ctx, "fence").Err(); err != nil {
			t.Fatal(err)
		}
	}
	s.Crash()
	if err := s.Restart(true); err != nil {
		t.Fatal(err)
	}
	got, err := rdb.Get(ctx, "fence").Int()
	if err != nil {
		t.Fatal(err)
	}
	if got != n {
		t.Errorf("fence after a SIGKILL under everysec = %d, want all %d acknowledged INCRs", got, n)
	}
}
