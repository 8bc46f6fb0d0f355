package realmode

import (
	"fmt"
	"time"

	"github.com/locksim/locksim/sim"
)

// The progress oracle of real mode is the simulator's (sim/progress.go),
// with its bound (sim.ProgressBound), over the coordinator's true time: a
// client wants the lock from its call of Acquire to its grant, holds it
// from the grant to its call of Release; a stretch in which some client
// wants it and none holds it is a stall, and a stall past the bound
// breaks the progress claim.

type progress struct {
	bound   int64
	ttl     time.Duration
	held    []int
	holders int
	wants   []bool
	wanters int
	since   int64
	stalls  int
	longest int64
	found   []sim.Violation
}

func newProgress(c *coord) *progress {
	n := len(c.state)
	return &progress{bound: int64(sim.ProgressBound(c.cfg.Pattern.Claims, c.sc.TTL)), ttl: c.sc.TTL, held: make([]int, n), wants: make([]bool, n)}
}

func (p *progress) stalled() bool { return p.holders == 0 && p.wanters > 0 }

// want notes that client i calls Acquire at now.
func (p *progress) want(i int, now int64) {
	if p.held[i] > 0 || p.wants[i] {
		return
	}
	p.wants[i] = true
	p.wanters++
	if p.stalled() && p.wanters == 1 {
		p.since = now
	}
}

// hold notes that client i was granted a lease at now.
func (p *progress) hold(c *coord, i int, now int64) {
	open := p.stalled()
	if p.wants[i] {
		p.wants[i] = false
		p.wanters--
	}
	p.held[i]++
	if p.held[i] > 1 {
		return
	}
	if open {
		p.end(c, now, "")
	}
	p.holders++
}

// free notes that client i calls Release at now.
func (p *progress) free(i int, now int64) {
	if p.held[i] == 0 {
		return
	}
	if p.held[i]--; p.held[i] > 0 {
		return
	}
	p.holders--
	if p.stalled() {
		p.since = now
	}
}

func (p *progress) end(c *coord, now int64, open string) {
	d := now - p.since
	p.longest = max(p.longest, d)
	if d <= p.bound {
		return
	}
	p.stalls++
	var waiting []string
	for i, n := range p.held {
		if n == 0 {
			waiting = append(waiting, c.state[i].name)
		}
	}
	p.found = append(p.found, sim.Violation{Kind: "stall", At: now, Clients: waiting,
		Detail: fmt.Sprintf("no client held the lock from t=%.6fs to t=%.6fs (%v, bound %v = %d TTL)%s", float64(p.since)/1e9, float64(now)/1e9,
			time.Duration(d).Round(time.Millisecond), time.Duration(p.bound), p.bound/int64(p.ttl), open)})
}

// finish judges a stall still open at the run's end.
func (p *progress) finish(c *coord, end int64) {
	if p.stalled() {
		p.end(c, end, " and still at the end of the run")
	}
}
