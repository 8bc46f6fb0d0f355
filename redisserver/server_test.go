package redisserver

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// needRedis skips (or, under CI=true, fails) without redis-server.
func needRedis(t *testing.T) {
	t.Helper()
	if !Available() {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server not found on PATH, and CI=true requires real mode's tests to run")
		}
		t.Skip("redis-server not installed")
	}
}

func gone(pid int) bool {
	return pid > 0 && syscall.Kill(pid, 0) != nil
}

func startT(t *testing.T, cfg Config) *Server {
	t.Helper()
	s, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

// TestServerCrashRestart: SIGKILL and a restart on the same port keep an
// acknowledged key with AOF always and lose it without persistence; after
// Stop no process is left.
func TestServerCrashRestart(t *testing.T) {
	needRedis(t)
	for _, c := range []struct {
		persist Persistence
		keep    bool
		want    bool
	}{{None, true, false}, {AOFAlways, true, true}, {AOFAlways, false, false}} {
		t.Run(string(c.persist)+"/keep="+strconv.FormatBool(c.keep), func(t *testing.T) {
			s := startT(t, Config{Name: "n1", Persist: c.persist})
			rdb := redis.NewClient(&redis.Options{Addr: s.Addr(), DialerRetries: 1})
			defer rdb.Close()
			ctx := context.Background()
			if err := rdb.Set(ctx, "k", "v", 0).Err(); err != nil {
				t.Fatal(err)
			}
			pid, port := s.PID(), s.Port()
			s.Crash()
			if !gone(pid) || s.Alive() {
				t.Fatalf("after Crash, pid %d still runs", pid)
			}
			if err := s.Restart(c.keep); err != nil {
				t.Fatal(err)
			}
			if s.Port() != port || s.PID() == pid {
				t.Fatalf("restart: port %d pid %d, want port %d and a new pid", s.Port(), s.PID(), port)
			}
			n, err := rdb.Exists(ctx, "k").Result()
			if err != nil {
				t.Fatal(err)
			}
			if (n == 1) != c.want {
				t.Errorf("key kept = %v, want %v", n == 1, c.want)
			}
			pid = s.PID()
			s.Stop()
			if !gone(pid) {
				t.Errorf("after Stop, pid %d still runs", pid)
			}
		})
	}
}

// TestServerBadEnvironment: a port taken, no such binary, a server that
// never answers: each a clear error, nothing left running.
func TestServerBadEnvironment(t *testing.T) {
	needRedis(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	taken := l.Addr().(*net.TCPAddr).Port
	if _, err := Start(context.Background(), Config{Name: "n1", Port: taken}); err == nil || !strings.Contains(err.Error(), "port "+strconv.Itoa(taken)+" is taken") {
		t.Errorf("a taken port: %v", err)
	}
	_, err = Start(context.Background(), Config{Name: "n1", Binary: "locksim-no-such-redis-server"})
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "locksim-no-such-redis-server") {
		t.Errorf("a missing binary: %v", err)
	}
	if _, err := Start(context.Background(), Config{Name: "n1", Persist: "aof-sometimes"}); err == nil || !strings.Contains(err.Error(), `"aof-sometimes"`) {
		t.Errorf("a bad persistence mode: %v", err)
	}
	mute := filepath.Join(t.TempDir(), "mute-server")
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := "#!/bin/sh\necho $$ > " + pidFile + "\nexec sleep 60\n"
	if err := os.WriteFile(mute, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = Start(context.Background(), Config{Name: "n2", Binary: mute, ReadyTimeout: 300 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "never answered PING within 300ms") || !strings.Contains(err.Error(), "n2") {
		t.Errorf("a server that never answers: %v", err)
	}
	b, rerr := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if rerr != nil || !gone(pid) {
		t.Errorf("the server that never answered (pid %d, %v) was left running", pid, rerr)
	}
}

// TestServerStartCancelledIsCancelled: a server whose run is cancelled
// before it answers PING fails with the cancellation, so that `real`
// ends as interrupted (exit 130), not as a failed node (exit 3): an
// interrupt during a cell's server start read "the run ended before it
// answered PING" with no cause, and TestRealTableKeepsFinishedCells
// failed with exit 3 on a loaded machine.
func TestServerStartCancelledIsCancelled(t *testing.T) {
	needRedis(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, err := Start(ctx, Config{Name: "n1"})
	if err == nil {
		s.Stop()
		t.Fatal("a server started under a cancelled run: want the cancellation (the wait sees it before its first PING)")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("start under a cancelled run: %v; want it to wrap context.Canceled", err)
	}
}

// TestOverlappingRestarts: a crash and two restarts of one server at once
// (a node crashed again while its restart waits for PING, as real mode's
// crash faults can) leave one server up on its port, and the last restart
// succeeds. Before, the second restart could start its process between
// the first one's start and its record of it: two processes raced for the
// port, and the loser's restart failed "exited before it answered PING"
// (TestCrashDuringARestart failed so in a CI run on the loaded machine).
func TestOverlappingRestarts(t *testing.T) {
	needRedis(t)
	s, err := Start(context.Background(), Config{Name: "n1"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	for round := range 10 {
		s.Crash()
		first := make(chan error, 1)
		go func() { first <- s.Restart(false) }()
		s.Crash() // lands before, during or after the first restart's start
		if err := s.Restart(false); err != nil {
			t.Fatalf("round %d: the later restart: %v", round, err)
		}
		<-first // its error, if any, is the later crash's doing
		if !s.Alive() {
			t.Fatalf("round %d: the server is down after the later restart", round)
		}
		c := redis.NewClient(&redis.Options{Addr: s.Addr(), DialerRetries: 1, MaxRetries: -1})
		err := c.Ping(context.Background()).Err()
		c.Close()
		if err != nil {
			t.Fatalf("round %d: PING after the restarts: %v", round, err)
		}
	}
}
