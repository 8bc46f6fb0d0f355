// Package redisserver starts and controls real redis-server processes:
// the one launcher of the project, used by real mode (a run's nodes, their
// crashes, restarts and replicas), by the benchmarks' --spawn and, through
// the thin test helper locks/lockstest/redistest, by every test that needs
// real Redis.
//
// A server listens on loopback only, on a port picked below the kernel's
// ephemeral range (see ports.go) unless one is given, keeps what its
// Persistence says across a crash, and dies with the process that started
// it, even one killed outright (a parent-death signal: package childproc).
//
//	s, err := redisserver.Start(ctx, redisserver.Config{Name: "n1", Persist: redisserver.AOFAlways})
//	if err != nil { ... }
//	defer s.Stop()
//	s.Crash()                // SIGKILL: no shutdown, no final save
//	err = s.Restart(true)    // the same port, with what AOF always kept
package redisserver

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
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/childproc"
)

// Persistence is what a redis-server keeps on disk across a crash.
type Persistence string

// Persistence modes. A SIGKILL loses what the mode has not yet written:
// everything (None), nothing acknowledged (AOFAlways, and AOFEverySec too:
// it writes to the page cache before it replies, and only a host crash
// loses the last second that was not fsynced), everything since the last
// snapshot (RDB, which snapshots after every write here: save 1 1).
const (
	None        Persistence = ""
	AOFAlways   Persistence = "aof-always"
	AOFEverySec Persistence = "aof-everysec"
	RDB         Persistence = "rdb"
)

// ErrNotFound is returned when the redis-server executable is not found.
var ErrNotFound = errors.New("redisserver: redis-server not found")

// Config describes one redis-server.
type Config struct {
	Name    string      // n1, n2, … (for messages)
	Binary  string      // executable; default "redis-server", looked up on PATH
	Port    int         // 0: a free loopback port
	Persist Persistence // default None: no RDB, no AOF
	// ReadyTimeout bounds the wait for the first PING reply (default 10s).
	ReadyTimeout time.Duration
	// Args are extra redis-server arguments (e.g. "--replicaof", host, port).
	Args []string
}

// Server is one redis-server process started here. It is killed
// by PID when Stop is called, and by the kernel if this process dies
// (a parent-death signal), so that none is left behind.
type Server struct {
	cfg  Config
	path string
	dir  string
	addr string
	// mu guards cmd and done, the current process: a restart replaces
	// them while another goroutine may crash, stop or look at the server.
	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	// restarting serialises Restart: a restart begun while another waits
	// for its process would start a second one on the same port.
	restarting sync.Mutex
	// cancel, closed, ends a wait for the server to become ready (what
	// it serves ended or was cancelled): Start's context, or what
	// EndWaitsWith gave; cancelled says why (nil: no cause known).
	cancel    <-chan struct{}
	cancelled func() error
	// picked: the port was picked here (pickServerPort), and is released
	// when the server stops.
	picked bool
}

// Start starts a redis-server as cfg says and waits until it answers
// PING, or until ctx is done (the error then wraps ctx's). On any error
// nothing is left running.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Binary == "" {
		cfg.Binary = Binary
	}
	if cfg.ReadyTimeout <= 0 {
		cfg.ReadyTimeout = 10 * time.Second
	}
	if err := cfg.Persist.validate(); err != nil {
		return nil, err
	}
	path, err := exec.LookPath(cfg.Binary)
	if err != nil {
		return nil, fmt.Errorf("%w: %s (install redis-server, or put it on PATH): %w", ErrNotFound, cfg.Binary, err)
	}
	if cfg.Port != 0 {
		return startOn(ctx, cfg, path, false)
	}
	// A picked port found taken when the server binds it is picked again:
	// nothing has connected to it yet. (A table's run found one taken
	// about once in 50 cells of five servers, with no server of its own
	// on it.)
	for try := 1; ; try++ {
		c := cfg
		if c.Port, err = pickPort(); err != nil {
			return nil, fmt.Errorf("redisserver: %w", err)
		}
		s, err := startOn(ctx, c, path, true)
		if err == nil || !errors.Is(err, errPortTaken) || try == 5 {
			return s, err
		}
	}
}

// pickPort picks a server's port (pickServerPort; a test makes it hand
// out a port it holds).
var pickPort = pickServerPort

// errPortTaken marks a start that found its port taken.
var errPortTaken = errors.New("port taken")

// startOn starts the server on cfg.Port; picked says the port was picked
// here, to be released when the server stops.
func startOn(ctx context.Context, cfg Config, path string, picked bool) (*Server, error) {
	dir, err := os.MkdirTemp("", "locksim-redis-")
	if err != nil {
		if picked {
			releaseServerPort(cfg.Port)
		}
		return nil, fmt.Errorf("redisserver: %s: data directory: %w", cfg.Name, err)
	}
	s := &Server{cfg: cfg, path: path, dir: dir, addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(cfg.Port)), cancel: ctx.Done(), cancelled: ctx.Err, picked: picked}
	if err := s.start(); err != nil {
		s.release()
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

func (p Persistence) validate() error {
	switch p {
	case None, AOFAlways, AOFEverySec, RDB:
		return nil
	}
	return fmt.Errorf("redisserver: Config.Persist: unknown mode %q (known: none, aof-always, aof-everysec, rdb)", string(p))
}

// args is the command line: loopback only, the persistence asked for.
func (s *Server) args() []string {
	a := []string{"--port", strconv.Itoa(s.cfg.Port), "--bind", "127.0.0.1", "--dir", s.dir,
		"--protected-mode", "no", "--daemonize", "no", "--loglevel", "notice", "--logfile", s.logPath()}
	switch s.cfg.Persist {
	case None:
		a = append(a, "--save", "", "--appendonly", "no")
	case AOFAlways, AOFEverySec:
		a = append(a, "--save", "", "--appendonly", "yes", "--appendfsync", strings.TrimPrefix(string(s.cfg.Persist), "aof-"))
	case RDB:
		a = append(a, "--save", "1 1", "--appendonly", "no")
	}
	return append(a, s.cfg.Args...)
}

func (s *Server) logPath() string { return filepath.Join(s.dir, "redis.log") }

// start launches the process on the configured port and waits for PING.
func (s *Server) start() error {
	if err := portFree(s.cfg.Port); err != nil {
		return fmt.Errorf("redisserver: %s: %w", s.cfg.Name, err)
	}
	cmd := exec.Command(s.path, s.args()...)
	done := make(chan struct{})
	// The process is started and made current at once, so that a crash
	// that comes meanwhile kills it, not the one before.
	s.mu.Lock()
	err := childproc.Start(cmd)
	if err == nil {
		s.cmd, s.done = cmd, done
	}
	s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("redisserver: %s: start %s: %w", s.cfg.Name, s.path, err)
	}
	go func() { _ = cmd.Wait(); close(done) }()
	if err := s.waitReady(done); err != nil {
		s.kill()
		return fmt.Errorf("redisserver: redis-server %s on %s: %w (log: %s)", s.cfg.Name, s.addr, err, Tail(s.logPath()))
	}
	return nil
}

// readyPoll is how often waitReady tries a PING.
const readyPoll = time.Millisecond

// waitReady waits for the process whose exit closes done to answer PING.
func (s *Server) waitReady(done <-chan struct{}) error {
	c := redis.NewClient(&redis.Options{Addr: s.addr, DialerRetries: 1, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(s.cfg.ReadyTimeout)
	for {
		select {
		case <-done:
			return errors.New("exited before it answered PING")
		case <-s.cancel:
			// The cause is kept, so that a run interrupted while a node
			// starts ends as interrupted, not as a failed node.
			if s.cancelled != nil && s.cancelled() != nil {
				return fmt.Errorf("its wait was ended before it answered PING: %w", s.cancelled())
			}
			return errors.New("its wait was ended before it answered PING")
		default:
		}
		// Dial plainly until the port accepts, so that go-redis (which logs
		// every failed dial) only talks to a listening server.
		err := listening(s.addr)
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			err = c.Ping(ctx).Err()
			cancel()
		}
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("never answered PING within %v: %w", s.cfg.ReadyTimeout, err)
		}
		// A restart's downtime is the scenario's For plus this wait: a
		// fine poll keeps it near the simulator's (a node back the
		// instant For ends), as a coarse one stretched it by up to 20ms.
		time.Sleep(readyPoll)
	}
}

// EndWaitsWith makes every later wait for the server to answer PING (a
// Restart's) end when done closes, with cause's error when it gives one:
// a server outlives the context that started it, not the run it serves.
func (s *Server) EndWaitsWith(done <-chan struct{}, cause func() error) {
	s.cancel, s.cancelled = done, cause
}

// Name is the server's name (n1, …).
func (s *Server) Name() string { return s.cfg.Name }

// Addr is the server's host:port.
func (s *Server) Addr() string { return s.addr }

// Port is the server's port (kept over restarts).
func (s *Server) Port() int { return s.cfg.Port }

// PID is the process id, or 0 when the server is down.
func (s *Server) PID() int {
	cmd, done := s.current()
	if !alive(cmd, done) {
		return 0
	}
	return cmd.Process.Pid
}

// Alive reports whether the process is running.
func (s *Server) Alive() bool { return alive(s.current()) }

// current is the current process and the channel its exit closes.
func (s *Server) current() (*exec.Cmd, chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cmd, s.done
}

func alive(cmd *exec.Cmd, done chan struct{}) bool {
	if cmd == nil {
		return false
	}
	select {
	case <-done:
		return false
	default:
		return true
	}
}

// Exited is closed when the current process exits (for any reason).
func (s *Server) Exited() <-chan struct{} {
	_, done := s.current()
	return done
}

// Crash kills the server with SIGKILL (no shutdown, no final save) and
// waits until it is gone.
func (s *Server) Crash() { s.kill() }

func (s *Server) kill() {
	cmd, done := s.current()
	if cmd == nil || cmd.Process == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-done
}

// Restart starts the server again on the same port, with its data files
// (what its persistence wrote before the crash) or without them.
func (s *Server) Restart(keepData bool) error {
	s.restarting.Lock() // one restart at a time: two would race for the port
	defer s.restarting.Unlock()
	s.kill()
	if !keepData {
		if err := clearData(s.dir); err != nil {
			return fmt.Errorf("redisserver: %s: clear data: %w", s.cfg.Name, err)
		}
	}
	return s.start()
}

// clearData removes every file in dir but the log.
func clearData(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == "redis.log" {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// Stop kills the server and removes its data directory.
func (s *Server) Stop() {
	s.kill()
	_ = os.RemoveAll(s.dir)
	s.release()
}

// release lets a port picked here be picked again.
func (s *Server) release() {
	if s.picked {
		releaseServerPort(s.cfg.Port)
	}
}

// Log returns the last lines of the server's log.
func (s *Server) Log() string { return Tail(s.logPath()) }

// portFree reports an error naming the port when it is taken.
func portFree(port int) error {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("port %d is taken: %w (%w)", port, err, errPortTaken)
	}
	return l.Close()
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

// Available reports whether redis-server is on PATH.
func Available() bool {
	_, err := exec.LookPath(Binary)
	return err == nil
}

// Binary is the redis-server executable a Config without one looks up on
// PATH.
const Binary = "redis-server"

// listening reports whether addr accepts a TCP connection.
func listening(addr string) error {
	conn, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
	if err != nil {
		return err
	}
	return conn.Close()
}
