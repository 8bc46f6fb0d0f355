package sim

import (
	"strconv"

	"github.com/locksim/locksim/sim/network"
	"github.com/locksim/locksim/sim/oracle"
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
// It reports every request it executes (oracle.StoreRead, oracle.StoreWrote): each
// is an act of the holder of the lease it was sent under, accepted or not.
type store struct {
	emit    func(oracle.Event)
	wrote   func(c int) // counts an accepted write of client c
	value   int64
	highest int64 // highest fence token seen on any request
}

func newStore(emit func(oracle.Event), wrote func(c int)) *store {
	return &store{emit: emit, wrote: wrote}
}

func (s *store) endpoint() *network.Endpoint {
	return &network.Endpoint{Name: "db", Handle: func(c int, m network.Message) network.Message {
		return s.handle(c, m.(storeReq))
	}}
}

// handle executes a request at the instant it arrives.
func (s *store) handle(c int, r storeReq) storeResp {
	if r.fence > 0 && (!r.write || r.fence >= s.highest) {
		s.highest = max(s.highest, r.fence)
	}
	if !r.write {
		s.emit(oracle.Event{Kind: oracle.StoreRead, Client: c, Lease: r.lease})
		return storeResp{value: s.value}
	}
	wrote := oracle.Event{Kind: oracle.StoreWrote, Client: c, Lease: r.lease, Value: r.value, From: r.read, Over: s.value}
	if r.fence > 0 && r.fence < s.highest {
		wrote.Stale = true
		s.emit(wrote)
		return storeResp{write: true, highest: s.highest}
	}
	s.emit(wrote)
	s.value = r.value
	s.wrote(c)
	return storeResp{write: true, accepted: true, value: s.value}
}
