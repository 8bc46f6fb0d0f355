package realmode

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/locksim/locksim/locks"
)

// overLease is a lease whose Err is already set while its Done has not
// closed: its validity ran out on the holder's clock, and the goroutine
// that closes Done has not run yet (after a SIGCONT, the workload may run
// first). heldLease is one still held.
type (
	overLease struct{ done chan struct{} }
	heldLease struct{ done chan struct{} }
)

func (overLease) Token() string           { return "t" }
func (overLease) Fence() int64            { return 0 }
func (overLease) Count() int              { return 1 }
func (overLease) Shared() bool            { return false }
func (overLease) Err() error              { return locks.ErrLockLost }
func (l overLease) Done() <-chan struct{} { return l.done }
func (heldLease) Token() string           { return "t" }
func (heldLease) Fence() int64            { return 0 }
func (heldLease) Count() int              { return 1 }
func (heldLease) Shared() bool            { return false }
func (heldLease) Err() error              { return nil }
func (l heldLease) Done() <-chan struct{} { return l.done }

// syncBuffer is a bytes.Buffer safe for the watcher's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestReleasingTellsALossSeenAsTheReleaseBegins: a holder that begins to
// release a lease already over on its own view has the loss told then,
// once, and not only by Release's return; a lease still held is told
// nothing.
func TestReleasingTellsALossSeenAsTheReleaseBegins(t *testing.T) {
	var out syncBuffer
	w := newWatcher(newConn(strings.NewReader(""), &out))
	w.watch(1, overLease{done: make(chan struct{})})
	w.watch(2, heldLease{done: make(chan struct{})})
	w.releasing(1)
	w.releasing(2)
	w.releasing(1) // a second call finds nothing to tell
	w.close()
	var lost []int
	for line := range strings.Lines(out.String()) {
		var m Msg
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if m.Kind == msgLost {
			lost = append(lost, m.Lease)
			if m.At == 0 {
				t.Errorf("lost notice without its instant: %q", line)
			}
		}
	}
	if len(lost) != 1 || lost[0] != 1 {
		t.Errorf("lost notices for leases %v, want one, for lease 1 (over as its release began)", lost)
	}
}
