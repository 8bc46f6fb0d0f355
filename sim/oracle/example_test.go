package oracle_test

import (
	"fmt"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/oracle"
)

// clock is a View of a run told by hand: true time moves when the
// example says.
type clock struct{ now int64 }

func (c *clock) Now() int64                     { return c.now }
func (c *clock) Name(i int) string              { return fmt.Sprint("c", i+1) }
func (c *clock) Stopping() bool                 { return false }
func (c *clock) Nodes() []oracle.Node           { return nil }
func (c *clock) Paused(int, int64, int64) int64 { return 0 }

// Two clients granted the lock in turn, the first still relying on its
// lease after the second's grant: an overlap.
func Example() {
	v := &clock{}
	log := oracle.NewLog(v, nil)
	claims := pattern.Claims{Mutex: true}
	safety := oracle.NewSafety(v, log, claims)
	run := oracle.List{safety, oracle.NewProgress(v, log, claims, 100e6, 2)}
	run.Observe(oracle.Event{Kind: oracle.Wanting, Client: 0})
	run.Observe(oracle.Event{Kind: oracle.Granted, Client: 0, Lease: 0})
	v.now = 150e6
	run.Observe(oracle.Event{Kind: oracle.Granted, Client: 1, Lease: 1})
	v.now = 160e6
	run.Observe(oracle.Event{Kind: oracle.StoreWrote, Client: 0, Lease: 0, Value: 1})
	run.End(v.now)
	for _, f := range log.Violations() {
		fmt.Println(f.Kind, f.Clients, f.Detail)
	}
	fmt.Println("accepted writes:", safety.Safety().Accepted)
	// Output:
	// overlap [c1 c2] c1 relied on its lease (write) while c2 held the lock (granted at t=0.150000s; c1's since t=0.000000s)
	// accepted writes: 1
}
