package realmode

import (
	"context"
	"os"
	"syscall"
	"testing"

	"github.com/locksim/locksim/redisserver"
)

// needRedis skips (or, under CI=true, fails) without redis-server.
func needRedis(t *testing.T) {
	t.Helper()
	if !redisserver.Available() {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server not found on PATH, and CI=true requires real mode's tests to run")
		}
		t.Skip("redis-server not installed")
	}
}

func gone(pid int) bool {
	return pid > 0 && syscall.Kill(pid, 0) != nil
}

func startT(t *testing.T, cfg ServerConfig) *Server {
	t.Helper()
	s, err := startServer(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}
