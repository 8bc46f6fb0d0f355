// Package real adapts the Go lock libraries teams use —
// go-redsync/redsync/v4, bsm/redislock and rueidis's rueidislock — to
// locksim's real mode, so that they run the simulator's workload under real
// faults beside locksim's own patterns. Each adapter uses its library as
// published, the way its README shows: redsync's Extend driven by a renewal
// loop, redislock's Refresh on a ticker and its TTL as the holder's check,
// rueidislock's own extension and its lock context as the holder's check.
// Its command, cmd/locksim-real-client, is the client process real mode
// starts (locksim real --client).
package real

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/realmode"
)

// Subjects are the library adapters, by name:
//
//	redsync-1, redsync-5                 redsync on 1 and 5 nodes, Extend every TTL/3
//	redsync-setnx-1, redsync-setnx-5     the same WithSetNXOnExtend (an extend may re-create a lost key)
//	redislock                            bsm/redislock, Refresh every TTL/3, TTL checked before the write
//	rueidislock                          rueidislock on 1 node (KeyMajority 1, as its README says for one instance)
func Subjects() []realmode.Subject {
	mutex := pattern.Claims{Mutex: true}
	return []realmode.Subject{
		{Name: "redsync-1", Nodes: 1, Claims: mutex, Summary: "go-redsync/redsync/v4 on one node; Extend every TTL/3", New: redsyncNew(false)},
		{Name: "redsync-5", Nodes: 5, Claims: mutex, Summary: "go-redsync/redsync/v4 over 5 nodes; Extend every TTL/3", New: redsyncNew(false)},
		{Name: "redsync-setnx-1", Nodes: 1, Claims: mutex, Summary: "redsync on one node, WithSetNXOnExtend; Extend every TTL/3", New: redsyncNew(true)},
		{Name: "redsync-setnx-5", Nodes: 5, Claims: mutex, Summary: "redsync over 5 nodes, WithSetNXOnExtend; Extend every TTL/3", New: redsyncNew(true)},
		{Name: "redislock", Nodes: 1, Claims: mutex, Summary: "bsm/redislock; Refresh on a TTL/3 ticker; lock.TTL checked before the write", New: redislockNew},
		{Name: "rueidislock", Nodes: 1, Claims: mutex, Summary: "rueidis rueidislock on one node (KeyMajority 1); its own extension every TTL/2", New: rueidislockNew},
	}
}

// errLost is a lease's Err once its renewal loop saw the lock go.
var errLost = errors.New("real: the renewal failed: lock lost")

// errNotReleased is a release the library reported as not done.
var errNotReleased = fmt.Errorf("real: release refused: %w", locks.ErrNotHeld)

// renewer runs fn every every until stopped or fn fails; then the lease
// is lost.
type renewer struct {
	lost atomic.Bool
	stop chan struct{}
	done chan struct{}
	once sync.Once
}

func startRenewer(every time.Duration, fn func() error) *renewer {
	r := &renewer{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(r.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-r.stop:
				return
			case <-t.C:
				if err := fn(); err != nil {
					r.lost.Store(true)
					return
				}
			}
		}
	}()
	return r
}

// end stops the loop and waits for it.
func (r *renewer) end() {
	r.once.Do(func() { close(r.stop) })
	<-r.done
}
