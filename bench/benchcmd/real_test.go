package benchcmd

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// benchArgs is one short single-node cell of basic (and the floor).
var benchArgs = []string{"--clients", "1", "--keys", "distinct", "--families", "single", "--subjects", "basic",
	"--reps", "1", "--warmup", "0s", "--quiet"}

func runBench(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := New(nil, "")
	cmd.SetArgs(append(append([]string{}, benchArgs...), args...))
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err = cmd.ExecuteContext(context.Background())
	return out.String(), errb.String(), err
}

// A server that stops answering mid-run (SIGSTOP) fails the sweep with an
// error naming its address, not a row of 0 cycles/s.
func TestServerThatStopsAnsweringFailsTheRun(t *testing.T) {
	ss := redistest.Require(t, 1)
	pid := ss[0].Pid()
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
	go func() {
		// A real process: stop it once the sweep is under way (it has
		// served 200 commands), polled in real time.
		c := redis.NewClient(&redis.Options{Addr: ss[0].Addr, DialerRetries: 1})
		defer c.Close()
		clocktest.Eventually(30*time.Second, func() bool { return served(c) >= 200 })
		_ = syscall.Kill(pid, syscall.SIGSTOP)
	}()
	start := time.Now()
	out, _, err := runBench(t, "--redis", ss[0].Addr, "--duration", "2s", "--timeout", "300ms")
	if err == nil {
		t.Fatalf("bench against a server stopped mid-run succeeded:\n%s", out)
	}
	if ExitCode(err) != ExitRuntime || !strings.Contains(err.Error(), "redis "+ss[0].Addr+" stopped answering") {
		t.Errorf("error %v (exit %d), want exit %d naming redis %s stopped answering", err, ExitCode(err), ExitRuntime, ss[0].Addr)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("bench took %v to give up on a stopped server", d)
	}
}

// setupAuth gives the server a default password and an ACL user.
func setupAuth(t *testing.T, s *redistest.Server) {
	t.Helper()
	c := redistest.Clients(t, []*redistest.Server{s})[0]
	ctx := context.Background()
	if err := c.Do(ctx, "ACL", "SETUSER", "benchuser", "on", ">benchpw-9731", "~*", "+@all").Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Do(ctx, "CONFIG", "SET", "requirepass", "defaultpw-4410").Err(); err != nil {
		t.Fatal(err)
	}
}

func TestRedisURLsWithPasswordsNeverPrintThem(t *testing.T) {
	ss := redistest.Require(t, 1)
	setupAuth(t, ss[0])
	addr := ss[0].Addr
	for _, tc := range []struct {
		name, url, secret string
		exit              int
	}{
		{"ACL user", "redis://benchuser:benchpw-9731@" + addr, "benchpw-9731", ExitOK},
		{"default user", "redis://:defaultpw-4410@" + addr + "/0", "defaultpw-4410", ExitOK},
		{"wrong password", "redis://benchuser:wrongpw-5512@" + addr, "wrongpw-5512", ExitRuntime},
		{"no password", addr, "", ExitRuntime},
		{"bad database", "redis://benchuser:benchpw-9731@" + addr + "/notadb", "benchpw-9731", ExitUsage},
		{"bad URL", "redis://benchuser:bench%zzpw-9731@" + addr, "pw-9731", ExitUsage},
		{"bad scheme", "http://benchuser:benchpw-9731@" + addr, "benchpw-9731", ExitUsage},
	} {
		out, stderr, err := runBench(t, "--redis", tc.url, "--duration", "100ms", "--timeout", "2s")
		if got := ExitCode(err); got != tc.exit {
			t.Errorf("%s: exit %d (%v), want %d", tc.name, got, err, tc.exit)
		}
		all := out + stderr
		if err != nil {
			all += err.Error()
		}
		if tc.secret != "" && strings.Contains(all, tc.secret) {
			t.Errorf("%s: the password %q is printed:\n%s", tc.name, tc.secret, all)
		}
		if tc.exit == ExitOK && !strings.Contains(out, "basic") {
			t.Errorf("%s: no row for basic:\n%s", tc.name, out)
		}
	}
}

func TestBadSubjectsAndTTLAreUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--subjects", "basic,bogus"}, []string{`unknown subject "bogus"`, "known: floor, fanout, basic"}},
		{[]string{"--ttl", "0s"}, []string{"--ttl (0s) must be positive"}},
		{[]string{"--ttl", "-1s"}, []string{"--ttl (-1s) must be positive"}},
		{[]string{"--ttl", "50ms"}, []string{"ttl (50ms) must be at least 100ms"}},
		{[]string{"--timeout", "0s"}, []string{"--timeout (0s) must be positive"}},
	} {
		_, _, err := runBench(t, tc.args...)
		if ExitCode(err) != ExitUsage {
			t.Errorf("bench %v: exit %d (%v), want %d", tc.args, ExitCode(err), err, ExitUsage)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("bench %v: %v, want it to contain %q", tc.args, err, w)
			}
		}
	}
}

// served is the number of commands the server behind c has processed, or
// 0 if it cannot say.
func served(c *redis.Client) int {
	info, err := c.Info(context.Background(), "stats").Result()
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "total_commands_processed:"); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}

// --spawn 1 on the default --nodes runs Redlock over the one node it has,
// and a --nodes given that asks for more servers than --spawn starts is
// refused as bad usage, naming both counts.
func TestSpawnOneFitsTheDefaultNodes(t *testing.T) {
	redistest.Require(t, 0)
	out, stderr, err := runBench(t, "--spawn", "1", "--families", "quorum", "--subjects", "redlock", "--duration", "50ms")
	if err != nil {
		t.Fatalf("bench --spawn 1 on the default --nodes: %v\n%s", err, stderr)
	}
	if !strings.Contains(out, "redlock") {
		t.Errorf("bench --spawn 1 printed no redlock row:\n%s", out)
	}
	_, _, err = runBench(t, "--spawn", "1", "--nodes", "1,3", "--families", "quorum", "--subjects", "redlock", "--duration", "50ms")
	if ExitCode(err) != ExitUsage || err == nil || !strings.Contains(err.Error(), "--nodes 3 needs 3 servers; there are 1") {
		t.Errorf("bench --spawn 1 --nodes 1,3: %v (exit %d), want exit %d naming --nodes 3 and the 1 server", err, ExitCode(err), ExitUsage)
	}
}
