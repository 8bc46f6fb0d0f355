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

// proc is one client process, seen from the coordinator.
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
	go func() { p.err = cmd.Wait(); events.Close(); close(p.done) }()
	if err := p.c.send(setup); err != nil {
		p.kill()
		return nil, fmt.Errorf("realmode: %s: send setup: %w (output: %s)", name, err, p.output.tail())
	}
	return p, nil
}

// pause stops the process (SIGSTOP) for d, then resumes it (SIGCONT);
// overlapping pauses resume when the last ends.
func (p *proc) pause(d time.Duration) {
	p.mu.Lock()
	p.paused++
	if p.paused == 1 {
		_ = p.cmd.Process.Signal(syscall.SIGSTOP)
	}
	p.mu.Unlock()
	time.AfterFunc(d, p.resume)
}

func (p *proc) resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paused--; p.paused == 0 {
		_ = p.cmd.Process.Signal(syscall.SIGCONT)
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

// kill ends the process (SIGKILL works on a stopped one too) and waits.
func (p *proc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
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
