package realmode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/locksim/locksim/childproc"
)

// outputGrace is how long a client's output may stay open after the
// client has exited (a process it forked and that left its group holds
// it): then the coordinator stops reading it.
const outputGrace = time.Second

// proc is one client process, seen from the coordinator. It runs in a
// process group of its own, which is signalled whole: a pause stops
// whatever the client forked (a wrapper script's child) with it, and a
// kill ends it all, as does the client's own exit.
type proc struct {
	name   string
	cmd    *exec.Cmd
	c      *conn
	stdin  io.Closer
	output *capped // the client's stdout and stderr
	done   chan struct{}
	err    error // the exit status, once done

	mu      sync.Mutex
	paused  int // pauses in force (SIGSTOP until the last ends)
	lastMsg time.Time
}

// startProc starts argv as client name, with env added to the
// environment, and sends it setup.
func startProc(name string, argv, env []string, setup Setup) (*proc, error) {
	if len(argv) == 0 {
		return nil, errors.New("realmode: Config.Client is empty: no client command to run")
	}
	events, eventsW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("realmode: %s: pipe: %w", name, err)
	}
	defer eventsW.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.ExtraFiles = []*os.File{eventsW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // childproc adds the parent-death signal
	cmd.WaitDelay = outputGrace
	p := &proc{name: name, cmd: cmd, output: &capped{limit: 16 << 10}, done: make(chan struct{}), lastMsg: time.Now()}
	cmd.Stdout, cmd.Stderr = p.output, p.output
	stdin, err := cmd.StdinPipe()
	if err != nil {
		events.Close()
		return nil, fmt.Errorf("realmode: %s: stdin: %w", name, err)
	}
	if err := childproc.Start(cmd); err != nil {
		events.Close()
		return nil, fmt.Errorf("realmode: %s: start %s: %w", name, argv[0], err)
	}
	p.stdin, p.c = stdin, newConn(events, stdin)
	go func() {
		p.err = cmd.Wait()
		// The leader is gone: end what it forked, which may still hold
		// the event pipe (just reaped, its pid is not yet anyone else's).
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		events.Close()
		close(p.done)
	}()
	if err := p.c.send(setup); err != nil {
		p.kill()
		return nil, fmt.Errorf("realmode: %s: send setup: %w (%s)", name, err, p.failure())
	}
	return p, nil
}

// errExited is a signal for a client that has exited: its run has
// failed already (the client failure is its verdict).
var errExited = errors.New("the client has exited")

// pause stops the process group (SIGSTOP) for d, then resumes it
// (SIGCONT), and calls resumed with the instant this pause ended (the
// process runs again once the last of overlapping pauses ends). A client
// that has exited cannot be paused: errExited.
func (p *proc) pause(d time.Duration, resumed func(time.Time)) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paused == 0 {
		if p.exited() {
			return errExited
		}
		if err := syscall.Kill(-p.cmd.Process.Pid, syscall.SIGSTOP); err != nil {
			return fmt.Errorf("SIGSTOP %s (process group %d): %w", p.name, p.cmd.Process.Pid, err)
		}
	}
	p.paused++
	time.AfterFunc(d, func() { p.resume(); resumed(time.Now()) })
	return nil
}

func (p *proc) resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paused--; p.paused == 0 {
		_ = p.signal(syscall.SIGCONT)
		p.lastMsg = time.Now() // a pause is not a hang
	}
}

// heard notes a message from the client.
func (p *proc) heard() {
	p.mu.Lock()
	p.lastMsg = time.Now()
	p.mu.Unlock()
}

// silentFor is how long the client has not been heard from, not counting
// a pause in force (0 then).
func (p *proc) silentFor() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paused > 0 {
		return 0
	}
	return time.Since(p.lastMsg)
}

// signal sends sig to the client's process group, while the client runs.
func (p *proc) signal(sig syscall.Signal) error {
	if p.exited() {
		return nil // its group was killed when it exited
	}
	return syscall.Kill(-p.cmd.Process.Pid, sig)
}

// kill ends the client's process group (SIGKILL works on a stopped one
// too) and waits for the client, at most outputGrace past its end for
// its output.
func (p *proc) kill() {
	_ = p.signal(syscall.SIGKILL)
	<-p.done
}

// exited reports whether the process has exited.
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// failure describes how the process ended, with the tail of its output.
func (p *proc) failure() string {
	<-p.done
	status := "exited with status 0 before the run ended"
	if p.err != nil {
		status = p.err.Error()
	}
	if out := p.output.tail(); out != "" {
		status += ": " + out
	}
	return status
}

// capped keeps the last limit bytes written to it.
type capped struct {
	mu    sync.Mutex
	limit int
	buf   bytes.Buffer
}

func (c *capped) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(b)
	if over := c.buf.Len() - c.limit; over > 0 {
		c.buf.Next(over)
	}
	return len(b), nil
}

// tail is the last few lines written, on one line.
func (c *capped) tail() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(c.buf.String()), "\n")
	if len(lines) > 6 {
		lines = lines[:6] // a panic's first lines name it
	}
	return strings.Join(lines, " | ")
}
