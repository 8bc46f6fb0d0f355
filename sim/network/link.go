package network

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/locksim/locksim/sim/fault"
)

// Latency is a one-way delay distribution: Base, plus a uniform draw in
// [0, Jitter], plus, with probability TailPPM per million, a uniform draw in
// [0, Tail]. Integer arithmetic only, so runs replay on any machine.
type Latency struct {
	Base    time.Duration
	Jitter  time.Duration
	TailPPM int64
	Tail    time.Duration
}

// DefaultLatency is a same-datacenter link: 0.2–0.5 ms one way, 1 in 100
// messages up to 5 ms later.
var DefaultLatency = Latency{Base: 200 * time.Microsecond, Jitter: 300 * time.Microsecond, TailPPM: 10_000, Tail: 5 * time.Millisecond}

// Validate names the first invalid field.
func (l Latency) Validate() error {
	switch {
	case l.Base < 0:
		return fmt.Errorf("latency base %v is negative", l.Base)
	case l.Jitter < 0:
		return fmt.Errorf("latency jitter %v is negative", l.Jitter)
	case l.TailPPM < 0 || l.TailPPM > 1_000_000:
		return fmt.Errorf("latency tail rate %dppm outside [0, 1000000]", l.TailPPM)
	case l.Tail < 0:
		return fmt.Errorf("latency tail %v is negative", l.Tail)
	}
	return nil
}

// Dir is a message's direction on a link (fault.Dir: faults name it).
type Dir = fault.Dir

// Directions.
const (
	Request = fault.Request // client to endpoint
	Reply   = fault.Reply   // endpoint to client
	Both    = fault.Both
)

// Link is the path between one client and one endpoint.
type Link struct {
	Client, Endpoint int
	Latency          Latency
	LossPPM          int64 // each message is lost with this probability per million

	rng   *rand.Rand
	cut   int // partitions in force
	extra [2]time.Duration
	loss  int64 // extra loss in force, ppm
	hole  int   // black holes in force (see BlackHole)
}

func newLink(seed uint64, client, ep int, lat Latency) *Link {
	stream := uint64(client)<<32 | uint64(ep) | 1<<63
	return &Link{Client: client, Endpoint: ep, Latency: lat, rng: rand.New(rand.NewPCG(seed, stream))}
}

// Cut reports whether a partition separates the two ends.
func (l *Link) Cut() bool { return l.cut > 0 }

// Partition cuts (on) or restores (off) the link; partitions nest.
func (l *Link) Partition(on bool) {
	if on {
		l.cut++
	} else if l.cut > 0 {
		l.cut--
	}
}

// Slow adds (or, negative, removes) extra delay in the given directions.
func (l *Link) Slow(dir Dir, d time.Duration) {
	for i, bit := range []Dir{Request, Reply} {
		if dir&bit != 0 {
			l.extra[i] = max(l.extra[i]+d, 0)
		}
	}
}

// Lossy adds (or removes) ppm to the link's loss rate.
func (l *Link) Lossy(ppm int64) { l.loss = max(l.loss+ppm, 0) }

// lost draws whether the next message is lost.
func (l *Link) lost() bool {
	p := l.LossPPM + l.loss
	return p > 0 && (p >= 1_000_000 || l.rng.Int64N(1_000_000) < p)
}

// delay draws the next message's one-way delay in the given direction.
func (l *Link) delay(dir Dir) int64 {
	lat := l.Latency
	d := int64(lat.Base)
	if lat.Jitter > 0 {
		d += l.rng.Int64N(int64(lat.Jitter) + 1)
	}
	if lat.TailPPM > 0 && l.rng.Int64N(1_000_000) < lat.TailPPM && lat.Tail > 0 {
		d += l.rng.Int64N(int64(lat.Tail) + 1)
	}
	if dir == Reply {
		return d + int64(l.extra[1])
	}
	return d + int64(l.extra[0])
}
