package sim

import (
	"strconv"

	"github.com/locksim/locksim/sim/network"
)

// storeReq is a request to the protected store: a read, or a write of
// Value (computed from Read) — each with the lease's fence token and the
// oracle's lease id.
type storeReq struct {
	write bool
	value int64 // written value
	read  int64 // the value the writer read
	fence int64
	lease int
}

func (r storeReq) Describe() string {
	s := "READ counter"
	if r.write {
		s = "WRITE counter=" + strconv.FormatInt(r.value, 10)
	}
	if r.fence > 0 {
		s += " fence=" + strconv.FormatInt(r.fence, 10)
	}
	return s
}

type storeResp struct {
	value    int64
	accepted bool
	write    bool
	highest  int64
}

func (r storeResp) Describe() string {
	switch {
	case !r.write:
		return strconv.FormatInt(r.value, 10)
	case r.accepted:
		return "ACCEPTED"
	}
	return "REJECTED (fence below " + strconv.FormatInt(r.highest, 10) + ")"
}

// store is the protected resource: a counter that checks fencing tokens.
type store struct {
	or      *oracle
	wrote   func(c int) // counts an accepted write of client c
	value   int64
	highest int64 // highest fence token seen on any request
}

func newStore(or *oracle, wrote func(c int)) *store { return &store{or: or, wrote: wrote} }

func (s *store) endpoint() *network.Endpoint {
	return &network.Endpoint{Name: "db", Handle: func(c int, m network.Message) network.Message {
		return s.handle(c, m.(storeReq))
	}}
}

// handle executes a request at the instant it arrives. Every request sent
// under a lease is an act of its holder, accepted or not.
func (s *store) handle(c int, r storeReq) storeResp {
	act := "read"
	if r.write {
		act = "write"
	}
	s.or.act(r.lease, act)
	if r.fence > 0 && (!r.write || r.fence >= s.highest) {
		s.highest = max(s.highest, r.fence)
	}
	if !r.write {
		return storeResp{value: s.value}
	}
	if r.fence > 0 && r.fence < s.highest {
		s.or.observe(event{kind: staleRejected, client: c})
		return storeResp{write: true, highest: s.highest}
	}
	if s.value != r.read {
		s.or.observe(event{kind: lostUpdate, client: c, value: r.value, read: r.read, over: s.value})
	}
	s.value = r.value
	s.or.observe(event{kind: writeAccepted, client: c})
	s.wrote(c)
	return storeResp{write: true, accepted: true, value: s.value}
}
