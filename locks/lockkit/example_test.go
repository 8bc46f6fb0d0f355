package lockkit_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockkit"
)

// A Locker of your own resolves its Options as the patterns do, and hands
// out leases made by NewLease: their validity runs on the Options' Clock,
// and Done closes when the Locker ends the holding (here a renewal was
// refused) or the validity runs out.
func ExampleNewLease() {
	clk := clocktest.NewManualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), nil)
	c, err := lockkit.Resolve(locks.Options{TTL: time.Second, Clock: clk})
	if err != nil {
		panic(err)
	}
	start := c.Clock().Now()
	lease, holding := lockkit.NewLease(lockkit.LeaseSpec{Clock: c.Clock(), Key: "job", Token: c.Rand().Token(),
		Count: 1, Start: start, Valid: c.Validity(0)})
	fmt.Println("valid for", lease.Validity(), "err", lease.Err())
	holding.End(fmt.Errorf("%w: renewal refused", locks.ErrLockLost))
	<-lease.Done()
	fmt.Println("lost:", errors.Is(lease.Err(), locks.ErrLockLost))
	// Output:
	// valid for 988ms err <nil>
	// lost: true
}
