package childproc_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/locksim/locksim/childproc"
)

// helperEnv makes the test binary the parent these tests kill: it starts
// a sleep with Start, prints the sleep's pid, and waits to be killed.
const helperEnv = "CHILDPROC_TEST_PARENT"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		cmd := exec.Command("sleep", "600")
		if err := childproc.Start(cmd); err != nil {
			fmt.Println("error:", err)
			os.Exit(3)
		}
		fmt.Println(cmd.Process.Pid)
		time.Sleep(10 * time.Minute) // real time: a real parent, alive until the test kills it
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func needLinuxAndSleep(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the parent-death signal is Linux's")
	}
	needCommand(t, "sleep")
}

// needCommand skips a test without the command name on the PATH, but
// fails it under CI=true, whose Debian machines have every one it needs.
func needCommand(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no %s on the PATH, and CI=true requires the child-process tests to run", name)
		}
		t.Skipf("no %s command", name)
	}
}

// alive reports whether pid is a process that has not exited (a zombie
// has).
func alive(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z"
}

// A child dies with its parent killed outright (SIGKILL): no handler,
// no deferred stop. Real time: real processes, waited for with a
// generous bound.
func TestChildDiesWithItsKilledParent(t *testing.T) {
	needLinuxAndSleep(t)
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), helperEnv+"=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := childproc.Start(parent); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		_ = parent.Process.Kill()
		_ = parent.Wait()
		t.Fatalf("helper parent printed %q (%v), want its child's pid", line, err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	for deadline := time.Now().Add(time.Minute); alive(pid); time.Sleep(50 * time.Millisecond) { // real time: a real process dying
		if time.Now().After(deadline) {
			t.Fatalf("child %d still running a minute after its parent was killed", pid)
		}
	}
}

// The parent-death signal watches the thread that started the child: a
// child asked for from a goroutine whose thread then ends (a goroutine
// that locked its thread and returned) lives on.
func TestChildOutlivesTheThreadThatAskedForIt(t *testing.T) {
	needLinuxAndSleep(t)
	type started struct {
		tid int
		err error
	}
	// The runtime ends a locked thread when its goroutine returns, except
	// the main thread, which it parks for good instead: a goroutine that
	// ran there (on a loaded machine it can) asked from a thread that never
	// ends. Such a try is killed and made again; the main thread, parked,
	// runs no other goroutine.
	var cmd *exec.Cmd
	var s started
	for try := 0; ; try++ {
		cmd = exec.Command("sleep", "600")
		ch := make(chan started)
		go func() {
			runtime.LockOSThread() // never unlocked: the runtime ends this thread when the goroutine returns
			ch <- started{syscall.Gettid(), childproc.Start(cmd)}
		}()
		s = <-ch
		if s.err != nil {
			t.Fatal(s.err)
		}
		if s.tid != syscall.Getpid() {
			break
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if try == 2 {
			t.Fatal("three goroutines in a row ran on the main thread, which the runtime parks instead of ending")
		}
	}
	var waitErr error
	exited := make(chan struct{})
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
	task := fmt.Sprintf("/proc/self/task/%d", s.tid)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) { // real time: a real thread ending
		if _, err := os.Stat(task); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("thread %d (of process %d) still there a minute after its goroutine returned", s.tid, syscall.Getpid())
		}
	}
	select {
	case <-exited:
		t.Fatalf("child exited (%v) when the thread that asked for it ended", waitErr)
	case <-time.After(time.Second): // real time: a death signal would have come at the thread's exit
	}
}

// Output and CombinedOutput return what the child wrote, as exec.Cmd's do.
func TestOutput(t *testing.T) {
	needCommand(t, "sh")
	out, err := childproc.Output(exec.Command("sh", "-c", "echo out; echo err >&2"))
	if err != nil || string(out) != "out\n" {
		t.Errorf("Output = %q, %v; want \"out\\n\"", out, err)
	}
	out, err = childproc.CombinedOutput(exec.Command("sh", "-c", "echo out; echo err >&2"))
	if err != nil || !strings.Contains(string(out), "out\n") || !strings.Contains(string(out), "err\n") {
		t.Errorf("CombinedOutput = %q, %v; want both lines", out, err)
	}
	_, err = childproc.Output(exec.Command("sh", "-c", "echo why >&2; exit 4"))
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 4 || string(ee.Stderr) != "why\n" {
		t.Errorf("Output of a failing command = %v, want exit 4 with its stderr", err)
	}
}
