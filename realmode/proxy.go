package realmode

import (
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/locksim/locksim/sim/fault"
)

// Link is a TCP proxy on one client–node link, driven by the
// coordinator: a partition black-holes it (bytes sent either way are
// dropped, so calls in flight time out with an unknown outcome, as lost
// messages do in the simulator; the connections that lost bytes are closed
// when it heals, since their streams are broken), and a slow link delays
// every chunk sent in a direction by the extra latency in force when it
// was sent.
type Link struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	closed bool
	cut    int              // partitions in force
	delay  [2]time.Duration // extra latency: [0] requests, [1] replies
	conns  map[*piped]bool  // open connections; true once one lost bytes
	wg     sync.WaitGroup
}

// piped is one proxied connection.
type piped struct{ client, node net.Conn }

// NewLink listens on a free loopback port and forwards to target.
func NewLink(target string) (*Link, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("realmode: proxy for %s: %w", target, err)
	}
	l := &Link{ln: ln, target: target, conns: map[*piped]bool{}}
	l.wg.Add(1)
	go l.accept()
	return l, nil
}

// Addr is where clients connect.
func (l *Link) Addr() string { return l.ln.Addr().String() }

func (l *Link) accept() {
	defer l.wg.Done()
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		l.mu.Lock()
		target := l.target
		l.mu.Unlock()
		n, err := net.DialTimeout("tcp", target, time.Second)
		if err != nil {
			c.Close() // the node is down: the client sees its dial fail
			continue
		}
		p := &piped{client: c, node: n}
		l.mu.Lock()
		if l.closed {
			l.mu.Unlock()
			c.Close()
			n.Close()
			return
		}
		l.conns[p] = false
		l.mu.Unlock()
		l.wg.Add(2)
		go l.pump(p, c, n, 0)
		go l.pump(p, n, c, 1)
	}
}

type chunk struct {
	b  []byte
	at time.Time
}

// pump copies src to dst (dir 0: client to node, 1: node to client),
// dropping what is sent during a partition and delaying the rest.
func (l *Link) pump(p *piped, src, dst net.Conn, dir int) {
	defer l.wg.Done()
	q := make(chan chunk, 1024)
	go deliver(q, dst)
	defer close(q)
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if at, ok := l.admit(p, dir); ok {
				q <- chunk{b: append([]byte(nil), buf[:n]...), at: at}
			}
		}
		if err != nil {
			l.drop(p)
			return
		}
	}
}

// admit says when a chunk sent now is delivered, or false if it is lost.
func (l *Link) admit(p *piped, dir int) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cut > 0 {
		l.conns[p] = true
		return time.Time{}, false
	}
	return time.Now().Add(l.delay[dir]), true
}

// deliver writes each chunk at its time, in order, until q closes.
func deliver(q <-chan chunk, dst io.Writer) {
	for c := range q {
		if d := time.Until(c.at); d > 0 {
			time.Sleep(d)
		}
		if _, err := dst.Write(c.b); err != nil {
			for range q {
			}
			return
		}
	}
}

func (l *Link) drop(p *piped) {
	p.client.Close()
	p.node.Close()
	l.mu.Lock()
	delete(l.conns, p)
	l.mu.Unlock()
}

// Partition starts (on) or ends a black-hole; partitions nest.
func (l *Link) Partition(on bool) {
	l.mu.Lock()
	var broken []*piped
	if on {
		l.cut++
	} else if l.cut--; l.cut == 0 {
		for p, lost := range l.conns {
			if lost {
				broken = append(broken, p)
			}
		}
	}
	l.mu.Unlock()
	for _, p := range broken {
		p.client.Close()
		p.node.Close()
	}
}

// Slow adds by (negative: removes) extra latency in dir.
func (l *Link) Slow(dir fault.Dir, by time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, bit := range []fault.Dir{fault.Request, fault.Reply} {
		if dir&bit != 0 {
			l.delay[i] = max(l.delay[i]+by, 0)
		}
	}
}

// Repoint sends the link's later connections to target and closes the
// open ones, as a client's connections to a node that failed over break:
// its next call dials again and reaches target.
func (l *Link) Repoint(target string) {
	l.mu.Lock()
	l.target = target
	open := make([]*piped, 0, len(l.conns))
	for p := range l.conns {
		open = append(open, p)
	}
	l.mu.Unlock()
	for _, p := range open {
		p.client.Close()
		p.node.Close()
	}
}

// Close stops listening, closes every connection and waits for the pumps.
func (l *Link) Close() {
	l.ln.Close()
	l.mu.Lock()
	l.closed = true
	for p := range l.conns {
		p.client.Close()
		p.node.Close()
	}
	l.mu.Unlock()
	l.wg.Wait()
}
