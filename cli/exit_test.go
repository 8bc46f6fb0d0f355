package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/locksim/locksim/childproc"
	"github.com/locksim/locksim/internal/report"
)

// TestMain lets a test run this binary as locksim itself: with
// LOCKSIM_TEST_MAIN=1 the test binary is the command, and with
// LOCKSIM_TEST_MAIN_PATTERN=NAME it is Main given a copy of basic named
// NAME (mainWithPattern).
func TestMain(m *testing.M) {
	if name, ok := os.LookupEnv(mainPatternEnv); ok {
		mainWithPattern(name)
	}
	if os.Getenv("LOCKSIM_TEST_MAIN") == "1" {
		os.Exit(start(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// locksimCmd is locksim with args as a process of its own.
func locksimCmd(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "LOCKSIM_TEST_MAIN=1")
	return cmd
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// An output that cannot be written is a failure of the environment
// (exit 3), not bad usage.
func TestWriteFailureExits3(t *testing.T) {
	for _, args := range [][]string{
		{"list"},
		{"list", "--json"},
		{"run", "--pattern", "fenced", "--scenario", "gc-pause", "--json"},
		{"explore", "--pattern", "basic", "--scenario", "gc-pause", "--seeds", "2"},
		{"check", "--print"},
		{"version"},
	} {
		root := newRoot()
		root.SetArgs(args)
		root.SetOut(failWriter{})
		root.SetErr(&bytes.Buffer{})
		err := root.Execute()
		if code := exitCode(err); code != exitRuntime {
			t.Errorf("locksim %s into a full stdout: exit %d (%v), want %d", strings.Join(args, " "), code, err, exitRuntime)
		}
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		needDevFull(t, err)
	}
	for _, args := range [][]string{
		{"explore", "--pattern", "basic", "--scenario", "gc-pause", "--seeds", "2", "--json", "--out", "/dev/full"},
		{"run", "--pattern", "fenced", "--scenario", "gc-pause", "--history", "/dev/full"},
		{"run", "--pattern", "fenced", "--scenario", "gc-pause", "--trace", "/dev/full"},
	} {
		_, _, err := runCLI(t, args...)
		if code := exitCode(err); code != exitRuntime || !strings.Contains(err.Error(), "no space left on device") {
			t.Errorf("locksim %s (a full disk): exit %d (%v), want %d naming the error", strings.Join(args, " "), code, err, exitRuntime)
		}
	}
	cmd := locksimCmd("list")
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		needDevFull(t, err)
	}
	defer full.Close()
	cmd.Stdout = full
	err = childproc.Run(cmd)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitRuntime {
		t.Errorf("locksim list > /dev/full: %v, want exit %d", err, exitRuntime)
	}
}

// bench's bad flags are usage errors, an unreachable Redis an
// environment failure.
func TestBenchFlagExitCodes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"bench", "--clients", "1,x"}, exitUsage},
		{[]string{"bench", "--reps", "0"}, exitUsage},
		{[]string{"bench", "--no-such-flag"}, exitUsage},
		{[]string{"bench", "--redis", "127.0.0.1:1", "--clients", "1", "--keys", "distinct", "--families", "single",
			"--duration", "10ms", "--warmup", "1ms", "--reps", "1", "--quiet"}, exitRuntime},
	} {
		_, _, err := runCLI(t, c.args...)
		if got := exitCode(err); got != c.want {
			t.Errorf("locksim %s: exit %d (%v), want %d", strings.Join(c.args, " "), got, err, c.want)
		}
	}
}

func TestExitCodes(t *testing.T) {
	for _, c := range []struct {
		err  error
		want int
	}{
		{nil, exitOK},
		{violationError{"x"}, exitViolation},
		{usagef("bad"), exitUsage},
		{runtimef("down"), exitRuntime},
		{errors.New("unclassified"), exitRuntime},
		{interruptError{errors.New("stopped")}, exitInterrupt},
		{fmt.Errorf("bench: basic: %w", context.Canceled), exitInterrupt},
	} {
		if got := exitCode(c.err); got != c.want {
			t.Errorf("exitCode(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}

// waitBusy returns once process pid has spent a second of CPU: well past
// its start-up and its signal handling, into the work. Without /proc it
// waits two seconds. Real time: pid is a real process.
func waitBusy(t *testing.T, pid int) {
	t.Helper()
	const ticks = 100 // a second at the usual USER_HZ of 100
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			time.Sleep(2 * time.Second)
			return
		}
		// Fields after the command name (which ends with ") "): utime and
		// stime are the 12th and 13th.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		utime, _ := strconv.Atoi(fields[11])
		stime, _ := strconv.Atoi(fields[12])
		if utime+stime >= ticks {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("process %d used less than a second of CPU in a minute", pid)
}

// interrupt starts locksim with args, signals it once it is busy with its
// work, and returns its stdout, stderr and exit code.
func interrupt(t *testing.T, sig os.Signal, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := locksimCmd(args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := childproc.Start(cmd); err != nil {
		t.Fatal(err)
	}
	waitBusy(t, cmd.Process.Pid)
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("locksim %s did not stop within 2 minutes of %v", strings.Join(args, " "), sig)
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// On SIGINT explore prints the runs that finished, marked partial, and
// exits 130.
func TestExploreInterruptedPrintsPartial(t *testing.T) {
	out, stderr, code := interrupt(t, os.Interrupt, "explore", "--pattern", "basic", "--scenario", "gc-pause",
		"--seeds", "100000000", "--parallel", "1", "--json")
	if code != exitInterrupt {
		t.Fatalf("explore after SIGINT: exit %d, want %d; stderr:\n%s", code, exitInterrupt, stderr)
	}
	var rep struct {
		Format  string
		Partial *struct{ Done, Total int }
		Cells   []struct{ Runs int }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("explore --json after SIGINT printed no JSON: %v\n%s", err, out)
	}
	if rep.Partial == nil || rep.Partial.Done == 0 || rep.Partial.Total != 100000000 || len(rep.Cells) != 1 || rep.Cells[0].Runs != rep.Partial.Done {
		t.Errorf("explore after SIGINT: %+v, want the finished runs marked partial", rep)
	}
	if !strings.Contains(stderr, "partial") {
		t.Errorf("stderr does not say the result is partial:\n%s", stderr)
	}
}

// On SIGTERM check prints the checks of the cells that finished, marked
// partial and without a verdict, and exits 130.
func TestCheckInterruptedPrintsPartial(t *testing.T) {
	expect := writeFile(t, "e.txt", "fenced gc-pause holds safe-store seeds=2\nbasic steady breaks mutex # wrong, but never judged: the cell does not finish\n")
	out, stderr, code := interrupt(t, syscall.SIGTERM, "check", "--expect", expect, "--unlisted", "skip", "--seeds", "100000000", "--parallel", "1")
	if code != exitInterrupt {
		t.Fatalf("check after SIGTERM: exit %d, want %d; stderr:\n%s", code, exitInterrupt, stderr)
	}
	for _, want := range []string{"check: PARTIAL: stopped after ", "of 100000002 runs", "1 checks of the cells that finished", "fenced", "0/2"} {
		if !strings.Contains(out, want) {
			t.Errorf("check output after SIGTERM lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "check: ok") || strings.Contains(out, "check: FAILED") || strings.Contains(out, "DEVIATION") {
		t.Errorf("a partial check gives a verdict:\n%s", out)
	}
}

// On SIGINT a long run exits 130 at once, and the trace file it was
// writing keeps its old content, with no temporary file beside it.
func TestRunInterruptedKeepsOldTrace(t *testing.T) {
	dir := t.TempDir()
	long := writeFile(t, "long.txt", "start nodes=1 clients=8 ttl=100ms duration=24h\n")
	trace := dir + "/trace.txt"
	if err := os.WriteFile(trace, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := interrupt(t, os.Interrupt, "run", "--pattern", "basic", "--scenario", long, "--trace", trace)
	if code != exitInterrupt {
		t.Fatalf("run after SIGINT: exit %d, want %d; stderr:\n%s", code, exitInterrupt, stderr)
	}
	if data, err := os.ReadFile(trace); err != nil || string(data) != "old" {
		t.Errorf("the trace after an interrupted run: %q, %v; want the old content", data, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files beside the trace: %v", entries)
	}
}

// bench's output paths are checked before it measures anything.
func TestBenchRefusesBadOutputs(t *testing.T) {
	dir := t.TempDir()
	p := dir + "/cpu.prof"
	refused(t, "--cpuprofile "+p+" and --blockprofile "+p, []string{p}, "bench", "--cpuprofile", p, "--blockprofile", p)
	refused(t, "--out /proc/x", nil, "bench", "--out", "/proc/x")
	refused(t, "--cpuprofile "+dir+"/no/cpu.prof", nil, "bench", "--cpuprofile", dir+"/no/cpu.prof")
}

// On SIGINT report exits 130 and leaves the earlier report as it was.
func TestReportInterruptedKeepsEarlierReport(t *testing.T) {
	out := t.TempDir()
	if _, _, err := runCLI(t, reportArgs(t, out, "basic")...); err != nil {
		t.Fatal(err)
	}
	before := filesUnder(t, out)
	manifest := mustRead(t, out+"/"+report.FileManifest)
	_, stderr, code := interrupt(t, os.Interrupt, "report", "--out", out, "--seeds", "1000", "--bench", t.TempDir(), "--commit=false")
	if code != exitInterrupt {
		t.Fatalf("report after SIGINT: exit %d, want %d; stderr:\n%s", code, exitInterrupt, stderr)
	}
	after := filesUnder(t, out)
	if !slices.Equal(before, after) || mustRead(t, out+"/"+report.FileManifest) != manifest {
		t.Errorf("an interrupted report changed the directory: before %v, after %v", before, after)
	}
}

// The JSON of an interrupted check carries partial, and a verdict that
// says so: interrupted, never passed.
func TestCheckInterruptedJSONIsPartial(t *testing.T) {
	expect := writeFile(t, "e.txt", "fenced gc-pause holds safe-store seeds=2\nbasic steady breaks mutex # never finishes\n")
	out, stderr, code := interrupt(t, os.Interrupt, "check", "--expect", expect, "--unlisted", "skip", "--seeds", "100000000", "--parallel", "1", "--json")
	if code != exitInterrupt {
		t.Fatalf("check --json after SIGINT: exit %d, want %d; stderr:\n%s", code, exitInterrupt, stderr)
	}
	var res struct {
		Format  string
		Verdict string
		Partial *struct{ Done, Total int }
		Checks  []struct{ Line int }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("check --json after SIGINT printed no JSON: %v\n%s", err, out)
	}
	if res.Verdict != "interrupted" {
		t.Errorf("check --json after SIGINT: verdict %q, want interrupted", res.Verdict)
	}
	if res.Format != formatCheck || res.Partial == nil || res.Partial.Total != 100000002 || len(res.Checks) != 1 || res.Checks[0].Line != 1 {
		t.Errorf("check --json after SIGINT: %+v; want format %s, partial of 100000002 runs, the check of line 1 only", res, formatCheck)
	}
}

// needDevFull skips a full-disk test on a system without /dev/full, but
// fails it under CI=true, whose Linux machines have one.
func needDevFull(t *testing.T, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("no /dev/full under CI=true: %v", err)
	}
	t.Skipf("no /dev/full: %v", err)
}
