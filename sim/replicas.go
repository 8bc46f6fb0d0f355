package sim

import (
	"math/rand/v2"
	"time"

	"github.com/locksim/locksim/sim/scenario"
)

// replicaLag returns the draw of each write's replication delay under
// the scenario's lag distribution, from rng (one PCG stream per node), or
// nil for a constant delay.
func replicaLag(sc scenario.Scenario, rng *rand.Rand) func() time.Duration {
	mean := float64(sc.Replicas)
	switch sc.ReplicaLag {
	case scenario.LagExp:
		return func() time.Duration { return time.Duration(rng.ExpFloat64() * mean) }
	case scenario.LagUniform:
		return func() time.Duration { return time.Duration(rng.Int64N(2*int64(sc.Replicas) + 1)) }
	}
	return nil
}
