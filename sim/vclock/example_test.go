package vclock_test

import (
	"fmt"
	"time"

	"github.com/locksim/locksim/sim/vclock"
)

// A process's clock as a function of true time: a drift makes its
// monotonic reading run fast or slow, a jump moves its wall reading only.
func ExampleClock() {
	c := vclock.New(0)
	if err := c.SetDrift(0, 250_000); err != nil { // 25% fast from t=0
		fmt.Println(err)
		return
	}
	t := time.Second.Nanoseconds() // one second of true time
	fmt.Println("mono:", time.Duration(c.Mono(t)))
	fmt.Println("wall:", time.Duration(c.Wall(t)))
	fmt.Println("true time for 100ms of its own:", time.Duration(c.TrueFor(100*time.Millisecond)))

	c.Jump(-500 * time.Millisecond) // an NTP step back
	fmt.Println("after the jump, mono:", time.Duration(c.Mono(t)), "wall:", time.Duration(c.Wall(t)), "jumps:", c.Jumps())
	// Output:
	// mono: 1.25s
	// wall: 1.25s
	// true time for 100ms of its own: 80ms
	// after the jump, mono: 1.25s wall: 750ms jumps: 1
}
