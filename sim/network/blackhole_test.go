package network

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestBlackHoleExecutesAndSwallowsTheReply: on a black-holed link the
// request arrives and takes effect, no reply and no error comes back, and
// the call ends on the client's timeout; once the hole closes, calls
// answer again. A partition, unlike it, never delivers the request
// (TestDeadlineBeatsTimeoutAndPartitionDrops).
func TestBlackHoleExecutesAndSwallowsTheReply(t *testing.T) {
	w := newWorld(t, 1, 1, fixed)
	w.net.Timeout = 50 * time.Millisecond
	w.net.Link(0, 0).BlackHole(true)
	r := w.net.NewRedisClient(0, 0)
	var holed, after error
	var at int64
	p := w.clients[0]
	p.Spawn("main", func() {
		holed = r.SetNX(context.Background(), "k", "v", time.Minute).Err()
		at = w.s.Now()
		w.net.Link(0, 0).BlackHole(false)
		after = r.SetNX(context.Background(), "k2", "v", time.Minute).Err()
	})
	w.run(t, time.Second)
	var te *TimeoutError
	if !errors.As(holed, &te) || at != int64(50*time.Millisecond) {
		t.Fatalf("SetNX over a black hole = %v at %v, want a timeout at 50ms", holed, time.Duration(at))
	}
	if got := w.nodes[0].Peek([]string{"k"})[0].Str; got != "v" {
		t.Errorf("k on the node = %q, want v: a black-holed request is executed", got)
	}
	if after != nil {
		t.Errorf("SetNX after the hole closed = %v, want the reply", after)
	}
	if st := w.net.Stats(); st.Holed != 1 || st.Dropped != 1 {
		t.Errorf("stats %+v: want one reply black-holed (and counted as dropped)", st)
	}
}

// TestBlackHoleTakesARepliesInFlight: a reply already on its way when the
// hole opens is swallowed too.
func TestBlackHoleTakesARepliesInFlight(t *testing.T) {
	w := newWorld(t, 1, 1, fixed)
	w.net.Timeout = 50 * time.Millisecond
	r := w.net.NewRedisClient(0, 0)
	var err error
	w.clients[0].Spawn("main", func() { err = r.SetNX(context.Background(), "k", "v", time.Minute).Err() })
	// The request arrives at 1ms; its reply would be back at 2ms.
	w.s.At(int64(1500*time.Microsecond), func() { w.net.Link(0, 0).BlackHole(true) })
	w.run(t, time.Second)
	var te *TimeoutError
	if !errors.As(err, &te) || w.net.Stats().Holed != 1 {
		t.Errorf("SetNX = %v, holed %d: want the in-flight reply swallowed and a timeout", err, w.net.Stats().Holed)
	}
}
