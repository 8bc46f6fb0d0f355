package linearizability

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/model"
)

// genHistory builds a linearizable history of n ops on one key by clients
// concurrent clients, from the reference models: op i takes effect at
// instant 10·i, inside an interval of up to ±50 around it, so each op
// overlaps about ten others. Sections, store reads and writes, and lock
// calls are mixed; a fraction unknown of them lose their reply (the
// outcome is then recorded as unknown, though it took effect).
func genHistory(seed uint64, n, clients int, unknown float64) *history.History {
	g := &gen{r: rand.New(rand.NewPCG(seed, 1)), free: make([]int64, clients), store: &model.FencedStore{Checking: true}}
	g.lock, _ = model.NewLock(model.LockSpec{TTL: time.Hour, Reentrant: true})
	h := &history.History{Pattern: "generated", Source: "sim", Seed: seed}
	for i := range n {
		at := int64(10*i + 100)
		c := i % clients
		o := g.op(c, at)
		o.Call = max(at-g.r.Int64N(50), g.free[c]+1)
		o.Return = at + g.r.Int64N(50)
		g.free[c] = o.Return
		if g.r.Float64() < unknown {
			o.Return = history.Unknown
			g.free[c] = at + 50
		}
		h.Ops = append(h.Ops, o)
	}
	return h
}

type gen struct {
	r       *rand.Rand
	free    []int64 // when each client's last op returned
	lock    *model.Lock
	store   *model.FencedStore
	counter int64
	fence   int64
}

// op is client c's next op, taking effect at instant at.
func (g *gen) op(c int, at int64) history.Op {
	o := history.Op{Client: c, Key: "res"}
	switch k := g.r.IntN(10); {
	case k < 4:
		o.Kind, o.Value, o.OK = history.Section, g.counter, true
		g.counter++
	case k < 6:
		g.fence += g.r.Int64N(2)
		fence := g.fence - g.r.Int64N(2)
		o.Kind, o.Fence, o.Value = history.Write, fence, at
		o.OK = g.store.Write(fence, at)
	case k < 7:
		o.Kind, o.Value, o.OK = history.Read, g.store.Read(), true
	default:
		g.lockOp(&o, fmt.Sprintf("owner-%d", c))
	}
	return o
}

func (g *gen) lockOp(o *history.Op, owner string) {
	o.Token = owner
	if g.lock.Holds(owner) && g.r.IntN(2) == 0 {
		left, ok := g.lock.Release(owner)
		o.Kind, o.OK, o.Count = history.Release, ok, left
		return
	}
	grant := g.lock.Acquire(owner)
	o.Kind, o.OK, o.Count = history.Acquire, grant.OK, grant.Count
}
