package locks

import (
	"testing"
	"time"
)

// strategySink keeps what strategy returns on the heap, as the retry
// loop's interface calls do.
var strategySink RetryStrategy

// TestRetryStrategyResolvedOnce: the strategy that the Retry field
// describes is built when the options are resolved, not at every Acquire
// (it allocated twice a call), and it is the same strategy.
func TestRetryStrategyResolvedOnce(t *testing.T) {
	for _, o := range []Options{
		{TTL: time.Second},
		{TTL: time.Second, Retry: Retry{Attempts: -1}},
		{TTL: time.Second, Retry: Retry{Attempts: 3, Delay: time.Millisecond, MaxDelay: 4 * time.Millisecond}},
		{TTL: time.Second, RetryStrategy: ConstantBackoff(time.Millisecond)},
	} {
		c, err := o.resolve()
		if err != nil {
			t.Fatalf("resolve(%+v) = %v", o, err)
		}
		if n := testing.AllocsPerRun(100, func() { strategySink = c.strategy() }); n != 0 {
			t.Errorf("strategy() with Retry %+v allocates %v times a call, want 0", o.Retry, n)
		}
		fresh := config{Options: c.Options}
		if got, want := c.strategy(), fresh.strategy(); got != want {
			t.Errorf("strategy() = %#v, want %#v (as built from the options)", got, want)
		}
	}
}
