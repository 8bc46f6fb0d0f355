package realmode

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/locksim/locksim/sim/scenario"
)

// The coordinator and a client process talk in JSON lines: the client
// writes each message to fd 3 and blocks until the coordinator answers on
// its stdin. Every message but a notice is answered, so an operation is stamped
// (invoked) before the client makes it, a fault at a workload point takes
// effect before the client goes on, and the store executes a read or a
// write at one instant of the coordinator's true time. Notices (lost,
// stall) come from the client's watcher goroutine whenever their event
// happens, between the workload's messages, and are never answered: a
// client that sends none is judged without them (a loss then told only by
// its Release, no unplanned stop measured). The client's own stdout and
// stderr are kept for the verdict of a client that fails.

// ProtocolVersion is the version of this protocol (docs/real-protocol.md).
// A client announces the version it speaks in its ready message; the
// coordinator refuses any other, and gives its own in the Setup.
const ProtocolVersion = 1

// Setup is the first line a client reads: everything it needs to run.
type Setup struct {
	Protocol int               `json:"protocol"` // ProtocolVersion
	Name     string            `json:"name"`     // c1, c2, …
	Index    int               `json:"index"`
	Pattern  string            `json:"pattern"`
	Addrs    []string          `json:"addrs"` // one per node, n1 first
	Key      string            `json:"key"`
	TTL      time.Duration     `json:"ttl"`
	Seed     uint64            `json:"seed"`
	Workload scenario.Workload `json:"workload"`
	// Options are the scenario's pattern line: with TTL and
	// Workload.Retry, the lock's options (scenario.Scenario.LockOptions).
	Options  scenario.PatternOptions `json:"pattern_options"`
	Timeout  time.Duration           `json:"timeout"`             // per-command read timeout
	DriftPPM int64                   `json:"drift_ppm,omitempty"` // the client's Clock runs at 1 + DriftPPM/1e6
}

// Message kinds a client sends.
const (
	msgReady  = "ready"  // the locker is built; the reply starts the run
	msgInvoke = "invoke" // Op is about to be called
	msgReturn = "return" // Op returned
	msgPoint  = "point"  // the client reached workload point Point
	msgRead   = "read"   // a read of the store under Lease
	msgWrite  = "write"  // a write of Value computed from Read under Lease
	msgCheck  = "check"  // the lease check before the write: OK if still held
	msgFatal  = "fatal"  // the client cannot go on (Err says why)
	// Notices: sent whenever they happen, from the client's watcher
	// goroutine, and never answered.
	msgLost  = "lost"  // the holding Lease stopped being the holder's on its own view (Done closed, Err set) at At
	msgStall = "stall" // the client's heartbeat saw no tick for Gap, ending at At
)

// notice reports whether a message kind is a notice (not answered).
func notice(kind string) bool { return kind == msgLost || kind == msgStall }

// Msg is one client message; which fields matter depends on Kind.
type Msg struct {
	Kind     string `json:"kind"`
	Protocol int    `json:"protocol,omitempty"` // ready: the version the client speaks
	Op       string `json:"op,omitempty"`       // history.Acquire or history.Release
	OK       bool   `json:"ok,omitempty"`
	Unknown  bool   `json:"unknown,omitempty"` // the outcome is not known
	Err      string `json:"err,omitempty"`
	Token    string `json:"token,omitempty"`
	Fence    int64  `json:"fence,omitempty"`
	Count    int    `json:"count,omitempty"`
	Mode     string `json:"mode,omitempty"`
	Point    string `json:"point,omitempty"`
	Lease    int    `json:"lease,omitempty"`
	Read     int64  `json:"read,omitempty"`
	Value    int64  `json:"value,omitempty"`
	// Key is a granted lease's key, where it differs from Setup.Key
	// (a pattern's own key: Fenced's hash-tagged one).
	Key string `json:"key,omitempty"`
	// At is the client's wall clock (Unix ns; the coordinator's, on one
	// machine) when a notice's event happened; Gap a stall's length.
	At  int64         `json:"at,omitempty"`
	Gap time.Duration `json:"gap,omitempty"`
}

// Reply answers one message.
type Reply struct {
	Stop     bool          `json:"stop,omitempty"`     // the run is over: exit now
	Lease    int           `json:"lease,omitempty"`    // for a granted acquire: the lease id
	Value    int64         `json:"value,omitempty"`    // for a read: the counter
	Accepted bool          `json:"accepted,omitempty"` // for a write
	Slow     time.Duration `json:"slow,omitempty"`     // for a point: sleep this long first
	Jump     time.Duration `json:"jump,omitempty"`     // step the client's wall clock (its Clock's Now) by this
}

// conn is one end of the message stream. Sends are serialised: a
// client's watcher sends notices beside its workload's messages.
type conn struct {
	in  *bufio.Reader
	mu  sync.Mutex
	out *bufio.Writer
}

func newConn(r io.Reader, w io.Writer) *conn {
	return &conn{in: bufio.NewReaderSize(r, 64*1024), out: bufio.NewWriterSize(w, 64*1024)}
}

// send writes v as one line and flushes.
func (c *conn) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.out.Write(b); err != nil {
		return err
	}
	return c.out.Flush()
}

// recv reads one line into v.
func (c *conn) recv(v any) error {
	line, err := c.in.ReadBytes('\n')
	if err != nil {
		return err
	}
	if err := json.Unmarshal(line, v); err != nil {
		return fmt.Errorf("realmode: bad message %q: %w", line, err)
	}
	return nil
}

// recvMsg reads one client message strictly: a field the protocol does
// not define is refused by name, as is a line that is not one JSON object.
func (c *conn) recvMsg(m *Msg) error {
	line, err := c.in.ReadBytes('\n')
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(m); err != nil {
		return fmt.Errorf("%w: message %s: %v", errProtocol, bytes.TrimSpace(line), err)
	}
	if dec.More() {
		return fmt.Errorf("%w: message %s: more than one JSON value on the line", errProtocol, bytes.TrimSpace(line))
	}
	if err := validate(*m); err != nil {
		return fmt.Errorf("%w: message %s: %v", errProtocol, bytes.TrimSpace(line), err)
	}
	return nil
}
