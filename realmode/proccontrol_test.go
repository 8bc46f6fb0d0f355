package realmode

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/sim/scenario"
)

// marked lists the processes (any parent) whose environment holds mark:
// a client and whatever it forked.
func marked(mark string) []int {
	envs, _ := filepath.Glob("/proc/[0-9]*/environ")
	var out []int
	for _, f := range envs {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), mark) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		if st, err := os.ReadFile(filepath.Join(filepath.Dir(f), "stat")); err == nil && pid != os.Getpid() {
			s := string(st)
			if fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(fields) > 0 && fields[0] != "Z" {
				out = append(out, pid)
			}
		}
	}
	return out
}

// forkingClient is a client wrapper that forks a child which keeps the
// client's stdout, stderr and event pipe open, then execs the client.
func forkingClient(t *testing.T) (Config, string) {
	t.Helper()
	mark := fmt.Sprintf("LOCKSIM_TEST_MARK=%d-%s", os.Getpid(), strings.ReplaceAll(t.Name(), "/", "-"))
	cfg := testConfig(t, "basic", builtin(t, "steady", 1), 1)
	cfg.Client = []string{"/bin/sh", "-c", `sleep 1000 & exec "$0"`, os.Args[0]}
	cfg.ClientEnv = append(cfg.ClientEnv, mark)
	t.Cleanup(func() { // on a failure, do not leave the forked sleeps behind
		for _, pid := range marked(mark) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return cfg, mark
}

// TestForkingClientIsKilledAsAGroup: a client wrapper that forks a child
// keeping the client's output open neither hangs the run at its end nor
// when it is cancelled, and its child is killed with it (the client's
// process group). Before, Run never returned: it waited for the client's
// output, which the child held open for 1000s.
func TestForkingClientIsKilledAsAGroup(t *testing.T) {
	needRedis(t)
	for _, cancelled := range []bool{false, true} {
		t.Run(map[bool]string{false: "run-ends", true: "cancelled"}[cancelled], func(t *testing.T) {
			cfg, mark := forkingClient(t)
			cfg.Scenario.Clients, cfg.Scenario.Duration, cfg.Scenario.TTL = 2, 500*time.Millisecond, time.Second
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cancelledAt := make(chan time.Time, 1)
			if cancelled {
				cfg.Scenario.Duration = 5 * time.Minute
				go func() {
					// Real processes: cancel once both clients and their sleeps run.
					clocktest.Eventually(time.Minute, func() bool { return len(marked(mark)) >= 4 })
					cancelledAt <- time.Now()
					cancel()
				}()
			}
			done := make(chan error, 1)
			go func() { _, err := Run(ctx, cfg); done <- err }()
			select {
			case err := <-done:
				if cancelled != errors.Is(err, context.Canceled) {
					t.Errorf("Run = %v, want cancelled %v", err, cancelled)
				}
				if cancelled {
					// Not a speed test: the bound is against a hang, six times
					// the documented one for a loaded machine.
					if d := time.Since(<-cancelledAt); d > 6*ShutdownBound {
						t.Errorf("Run returned %v after it was cancelled (ShutdownBound %v)", d, ShutdownBound)
					} else {
						t.Logf("Run returned %v after it was cancelled", d)
					}
				}
			case <-time.After(90 * time.Second):
				t.Fatalf("Run has not returned 90s after it began (its clients' children hold their output)")
			}
			if !clocktest.Eventually(10*time.Second, func() bool { return len(marked(mark)) == 0 }) {
				t.Errorf("processes of the clients' groups left running: %v", marked(mark))
			}
			if left := children(t); len(left) > 0 {
				t.Errorf("processes left running: %v", left)
			}
		})
	}
}

// serverPort returns the port of the one redis-server child of this
// process, and its pid, once it runs.
func serverPort(t *testing.T) (port, pid int) {
	for _, c := range children(t) {
		if !strings.HasSuffix(c, " redis-server") {
			continue
		}
		pid, _ = strconv.Atoi(strings.Fields(c)[0])
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		// Its arguments (--port P), or the title it sets over them
		// ("/usr/bin/redis-server 127.0.0.1:P").
		args := strings.Fields(strings.ReplaceAll(string(b), "\x00", " "))
		for i, a := range args {
			if a == "--port" && i+1 < len(args) {
				port, _ = strconv.Atoi(args[i+1])
			} else if p, ok := strings.CutPrefix(a, "127.0.0.1:"); ok {
				port, _ = strconv.Atoi(p)
			}
			if port != 0 {
				return port, pid
			}
		}
	}
	return 0, 0
}

// TestFailedRestartFailsTheRun: a node crashed by the scenario whose port
// someone takes while it is down cannot restart; the run fails naming the
// node and the cause instead of going on against whatever listens there.
// Before, Run returned a clean result with the crash fired.
func TestFailedRestartFailsTheRun(t *testing.T) {
	needRedis(t)
	sc, err0 := scenario.ParseString("start clients=2 ttl=1s duration=3s\ncrash n1 at=300ms for=1s\n")
	if err := err0; err != nil {
		t.Fatal(err)
	}
	taken := make(chan net.Listener, 1)
	go func() {
		var port, pid int
		clocktest.Eventually(time.Minute, func() bool { port, pid = serverPort(t); return port != 0 })
		// The crash: the server's process is gone, its port free until the
		// restart 1s later; take it (the kernel may take a moment to free it).
		clocktest.Eventually(time.Minute, func() bool { return syscall.Kill(pid, 0) != nil || isZombie(pid) })
		var l net.Listener
		var err error
		clocktest.Eventually(10*time.Second, func() bool {
			l, err = net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
			return err == nil
		})
		if err != nil {
			t.Errorf("take the port %d: %v", port, err)
		}
		taken <- l
	}()
	start := time.Now()
	_, err := Run(context.Background(), testConfig(t, "basic", sc, 1))
	t.Logf("Run = %v", err)
	if l := <-taken; l != nil {
		defer l.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "n1") || !strings.Contains(err.Error(), "restart") || !strings.Contains(err.Error(), "is taken") {
		t.Errorf("Run = %v, want an error naming n1, its restart and the taken port", err)
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("the run went on %v after its restart failed", d)
	}
	if left := children(t); len(left) > 0 {
		t.Errorf("processes left running: %v", left)
	}
}

func isZombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] == "Z"
}

// TestClientThatCannotRunNamed: a client command that cannot start, or
// that exits before the run, fails the run with what it wrote to stderr.
func TestClientThatCannotRunNamed(t *testing.T) {
	needRedis(t)
	for _, c := range []struct {
		argv []string
		want []string
	}{
		{[]string{"/no/such/client"}, []string{"c1", "/no/such/client"}},
		{[]string{"/bin/sh", "-c", "echo the client broke early >&2; exit 7"}, []string{"exit status 7", "the client broke early"}},
	} {
		cfg := testConfig(t, "basic", builtin(t, "steady", 1), 1)
		cfg.Client = c.argv
		_, err := Run(context.Background(), cfg)
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%v: Run = %v, want an error naming %q", c.argv, err, w)
			}
		}
		if left := children(t); len(left) > 0 {
			t.Errorf("processes left running: %v", left)
		}
	}
}

// TestCrashDuringARestart: a node crashed again while its restart waits
// for PING (a redis-server takes 12ms or more to answer; the second crash
// comes 5ms into the restart) is that crash's doing, not a failed
// restart: the run ends with a verdict, both restarts in its history, the
// node back up. Before, the first restart saw its process killed, reported
// "did not restart after its crash", and the run ended without a verdict
// (TestRealCrashRedlock's contention scenario did so on a loaded machine).
func TestCrashDuringARestart(t *testing.T) {
	needRedis(t)
	sc, err := scenario.ParseString("start clients=2 ttl=1s duration=1s\ncrash n1 at=100ms for=5ms\ncrash n1 at=110ms for=5ms\n")
	if err != nil {
		t.Fatal(err)
	}
	res := runReal(t, testConfig(t, "basic", sc, 1))
	if err := res.Err(); err != nil {
		t.Fatalf("a crash during a restart: %v", err)
	}
	var restarts []string
	for _, e := range res.History.Events {
		if e.Kind == "restart" {
			restarts = append(restarts, e.Detail)
		}
	}
	if len(restarts) == 0 || len(restarts) > 2 || slices.ContainsFunc(restarts, func(d string) bool { return strings.HasPrefix(d, "failed") }) {
		t.Errorf("restart events %q: want the node back, no failed restart", restarts)
	}
}
