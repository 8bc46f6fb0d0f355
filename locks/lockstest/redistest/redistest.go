// Package redistest starts real redis-server processes for tests and
// benchmarks: on free loopback ports, without persistence, stopped when the
// test ends, and killed with the process that started them, even one killed
// outright. It is a thin wrapper over package redisserver, the project's
// one launcher, for tests: Require and Clients tie servers and clients to a
// test's cleanup.
//
// When redis-server is not installed, Require skips the test — unless the
// environment variable CI is "true", where a missing server is a failure:
// CI promises that the suite ran against real Redis.
package redistest

import (
	"context"
	"os"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/redisserver"
)

// Binary is the redis-server executable looked up on PATH.
const Binary = redisserver.Binary

// Server is one running redis-server.
type Server struct {
	Addr string
	s    *redisserver.Server
}

// Available reports whether redis-server is on PATH.
func Available() bool { return redisserver.Available() }

// Start launches n redis-servers on free loopback ports, with no RDB/AOF
// persistence, and waits until each answers PING. On an error none is
// left running.
func Start(n int) ([]*Server, error) {
	ss, err := redisserver.StartMany(context.Background(), n)
	if err != nil {
		return nil, err
	}
	out := make([]*Server, len(ss))
	for i, s := range ss {
		out[i] = &Server{Addr: s.Addr(), s: s}
	}
	return out, nil
}

// Pid is the server's process id (tests pause it with SIGSTOP).
func (s *Server) Pid() int { return s.s.PID() }

// Stop kills the server, waits for it, and removes its directory.
func (s *Server) Stop() {
	if s == nil || s.s == nil {
		return
	}
	s.s.Stop()
}

// Stop stops every server in ss, in parallel.
func Stop(ss []*Server) {
	var servers []*redisserver.Server
	for _, s := range ss {
		if s != nil && s.s != nil {
			servers = append(servers, s.s)
		}
	}
	redisserver.StopAll(servers)
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
