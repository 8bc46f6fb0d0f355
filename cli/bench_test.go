package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/locksim/locksim/childproc"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// buildLocksim builds the locksim command (../cmd/locksim, this package's
// Main) into a temporary directory.
func buildLocksim(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "locksim")
	out, err := childproc.CombinedOutput(exec.Command("go", "build", "-o", bin, "../cmd/locksim"))
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// children returns the pids of the processes named comm whose parent is
// ppid, from /proc.
func children(t *testing.T, ppid int, comm string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(stat)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(s[end+1:])
		if len(fields) > 1 && s[open+1:end] == comm && fields[1] == strconv.Itoa(ppid) {
			out = append(out, pid)
		}
	}
	return out
}

// alive reports whether pid is a process that has not exited.
func alive(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z"
}

// Every redis-server `bench --spawn` started is stopped when bench is
// interrupted (SIGINT) or told to stop (SIGTERM), checked by pid.
func TestBenchSpawnStopsItsServersOnSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts redis-servers")
	}
	if !redistest.Available() {
		redistest.Require(t, 0) // skips, or fails under CI=true
	}
	bin := buildLocksim(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		var stderr bytes.Buffer
		cmd := exec.Command(bin, "bench", "--spawn", "2", "--clients", "1", "--keys", "distinct", "--families", "single",
			"--subjects", "basic", "--reps", "3", "--duration", "10s", "--quiet")
		cmd.Stderr = &stderr
		if err := childproc.Start(cmd); err != nil {
			t.Fatal(err)
		}
		var servers []int
		for deadline := time.Now().Add(60 * time.Second); len(servers) < 2 && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond) // real time: bench's real redis-servers starting
			servers = children(t, cmd.Process.Pid, redistest.Binary)
		}
		if len(servers) < 2 {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("%v: found redis-servers %v of bench, want 2\n%s", sig, servers, stderr.String())
		}
		time.Sleep(time.Second) // real time: a real bench process, signalled once into its measurement
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var err error
		select {
		case err = <-done:
		case <-time.After(60 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("%v: bench still running 60s after the signal", sig)
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() == 0 {
			t.Errorf("%v: bench exited with %v, want a failure status", sig, err)
		}
		if !strings.Contains(stderr.String(), "interrupted") {
			t.Errorf("%v: stderr %q, want it to say interrupted", sig, stderr.String())
		}
		for _, pid := range servers {
			if alive(pid) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("%v: redis-server pid %d still running after bench exited", sig, pid)
			}
		}
	}
}

// bench's failures carry locksim's exit statuses: 2 for bad usage, 3 for
// a server that cannot be reached.
func TestBenchExitCodes(t *testing.T) {
	quick := []string{"bench", "--clients", "1", "--keys", "distinct", "--families", "single", "--reps", "1", "--quiet"}
	for _, tc := range []struct {
		args []string
		want int
		msg  string
	}{
		{[]string{"--subjects", "bogus"}, exitUsage, `unknown subject "bogus" (known: floor, fanout, basic`},
		{[]string{"--ttl", "0s"}, exitUsage, "--ttl (0s) must be positive"},
		{[]string{"--redis", "redis://u:pw-6642@127.0.0.1:1/x"}, exitUsage, "redis address 1"},
		{[]string{"--redis", "127.0.0.1:1", "--timeout", "500ms"}, exitRuntime, "bench: redis 127.0.0.1:1: "},
	} {
		_, _, err := runCLI(t, append(append([]string{}, quick...), tc.args...)...)
		if got := exitCode(err); got != tc.want || err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("locksim bench %v: exit %d, %v; want exit %d and %q", tc.args, got, err, tc.want, tc.msg)
		}
		if err != nil && strings.Contains(err.Error(), "pw-6642") {
			t.Errorf("locksim bench %v prints the password: %v", tc.args, err)
		}
	}
}

// Every redis-server `bench --spawn` started dies with bench when bench
// is killed outright (SIGKILL: no handler, no deferred stop runs),
// checked by pid. Real time: real processes, waited for with a generous
// bound.
func TestBenchSpawnServersDieWithAKilledBench(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts redis-servers")
	}
	if !redistest.Available() {
		redistest.Require(t, 0) // skips, or fails under CI=true
	}
	bin := buildLocksim(t)
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "bench", "--spawn", "2", "--clients", "1", "--keys", "distinct", "--families", "single",
		"--subjects", "basic", "--reps", "3", "--duration", "10s", "--quiet")
	cmd.Stderr = &stderr
	if err := childproc.Start(cmd); err != nil {
		t.Fatal(err)
	}
	var servers []int
	t.Cleanup(func() {
		for _, pid := range servers {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	for deadline := time.Now().Add(60 * time.Second); len(servers) < 2 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond) // real time: bench's real redis-servers starting
		servers = children(t, cmd.Process.Pid, redistest.Binary)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if len(servers) < 2 {
		t.Fatalf("found redis-servers %v of bench, want 2\n%s", servers, stderr.String())
	}
	for _, pid := range servers {
		for deadline := time.Now().Add(60 * time.Second); alive(pid); time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("redis-server pid %d still running 60s after bench was killed", pid)
			}
		}
	}
}
