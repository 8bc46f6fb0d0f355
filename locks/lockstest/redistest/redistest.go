// Package redistest starts real redis-server processes for tests and
// benchmarks: on free loopback ports, without persistence, stopped when the
// test ends, and killed with the process that started them, even one killed
// outright (see package childproc).
//
// When redis-server is not installed, Require skips the test — unless the
// environment variable CI is "true", where a missing server is a failure:
// CI promises that the suite ran against real Redis.
package redistest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/childproc"
)

// Binary is the redis-server executable looked up on PATH.
const Binary = "redis-server"

// Server is one running redis-server.
type Server struct {
	Addr string
	cmd  *exec.Cmd
	dir  string
	done chan struct{}
}

// Available reports whether redis-server is on PATH.
func Available() bool {
	_, err := exec.LookPath(Binary)
	return err == nil
}

// Start launches n redis-servers on free loopback ports, with no RDB/AOF
// persistence, and waits until each answers PING.
func Start(n int) ([]*Server, error) {
	path, err := exec.LookPath(Binary)
	if err != nil {
		return nil, fmt.Errorf("redistest: %s not found on PATH: %w", Binary, err)
	}
	var out []*Server
	for range n {
		s, err := startOne(path)
		if err != nil {
			Stop(out)
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func startOne(path string) (*Server, error) {
	for attempt := 0; ; attempt++ {
		port, err := FreePort()
		if err != nil {
			return nil, fmt.Errorf("redistest: %w", err)
		}
		s, err := launch(path, port)
		if err == nil || attempt == 4 {
			return s, err
		}
	}
}

func launch(path string, port int) (*Server, error) {
	dir, err := os.MkdirTemp("", "locksim-redis-")
	if err != nil {
		return nil, err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	cmd := exec.Command(path,
		"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir,
		"--protected-mode", "no", "--daemonize", "no", "--loglevel", "warning")
	logf, err := os.Create(filepath.Join(dir, "redis.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := childproc.Start(cmd); err != nil {
		logf.Close()
		return nil, fmt.Errorf("redistest: start %s: %w", path, err)
	}
	s := &Server{Addr: addr, cmd: cmd, dir: dir, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); logf.Close(); close(s.done) }()
	if err := s.waitReady(10 * time.Second); err != nil {
		s.Stop()
		return nil, fmt.Errorf("redistest: redis-server on %s: %w (log: %s)", addr, err, Tail(filepath.Join(dir, "redis.log")))
	}
	return s, nil
}

func (s *Server) waitReady(limit time.Duration) error {
	c := redis.NewClient(&redis.Options{Addr: s.Addr, DialerRetries: 1, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(limit)
	for {
		select {
		case <-s.done:
			return errors.New("exited before it answered")
		default:
		}
		// Dial plainly until the port accepts, so that go-redis (which logs
		// every failed dial) only talks to a listening server.
		err := listening(s.Addr)
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			err = c.Ping(ctx).Err()
			cancel()
		}
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no PING reply after %v: %w", limit, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Pid is the server's process id (tests pause it with SIGSTOP).
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// Stop kills the server, waits for it, and removes its directory.
func (s *Server) Stop() {
	if s == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.done
	_ = os.RemoveAll(s.dir)
}

// Stop stops every server in ss, in parallel.
func Stop(ss []*Server) {
	var wg sync.WaitGroup
	for _, s := range ss {
		wg.Add(1)
		go func() { defer wg.Done(); s.Stop() }()
	}
	wg.Wait()
}

// Addrs returns the servers' addresses.
func Addrs(ss []*Server) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Addr
	}
	return out
}

// Require starts n servers for the test and stops them in t.Cleanup. It
// skips the test when redis-server is missing, except under CI=true, where
// it fails it.
func Require(t testing.TB, n int) []*Server {
	t.Helper()
	if !Available() {
		if os.Getenv("CI") == "true" {
			t.Fatalf("redis-server not found on PATH, and CI=true requires the real-Redis tests to run (apt-get install redis-server)")
		}
		t.Skip("redis-server not installed; real-Redis tests skipped (install redis-server to run them)")
	}
	ss, err := Start(n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { Stop(ss) })
	return ss
}

// Clients returns one go-redis client per server, closed in t.Cleanup,
// honouring context deadlines (ContextTimeoutEnabled), as the locks
// constructors require.
func Clients(t testing.TB, ss []*Server) []*redis.Client {
	t.Helper()
	out := make([]*redis.Client, len(ss))
	for i, s := range ss {
		c := redis.NewClient(&redis.Options{Addr: s.Addr, DialerRetries: 1, ContextTimeoutEnabled: true})
		t.Cleanup(func() { c.Close() })
		out[i] = c
	}
	return out
}

// listening reports whether addr accepts a TCP connection.
func listening(addr string) error {
	conn, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
	if err != nil {
		return err
	}
	return conn.Close()
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Tail returns the last lines of the log at path, joined by " | ", or
// why there is none.
func Tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "no log: " + err.Error()
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > 4 {
		lines = lines[len(lines)-4:]
	}
	return strings.Join(lines, " | ")
}
