package pattern_test

import (
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// A user registers a pattern of their own — here the basic lock under a
// new name, built over the seams a simulated client is given — and looks
// it up by name, as sim.Run, locksimtest and the CLI do.
func ExampleRegister() {
	pattern.Register(pattern.Pattern{
		Name:    "example-basic",
		Summary: "the basic lock, registered under a name of its own",
		Nodes:   1,
		Claims:  pattern.Claims{Mutex: true},
		New: pattern.Single(func(r locks.Redis, key string, o locks.Options) (locks.Locker, error) {
			return locks.NewBasic(r, key, o)
		}),
	})
	p, err := pattern.Lookup("example-basic")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Name, p.Nodes, p.Claims.Names())

	_, err = pattern.Lookup("no-such-lock")
	fmt.Println(err != nil)
	// Output:
	// example-basic 1 [mutex]
	// true
}

// Claims name what the oracles judge.
func ExampleClaims_Names() {
	fmt.Println(pattern.Claims{Mutex: true, SafeStore: true, Fencing: true}.Names())
	fmt.Println(pattern.Claims{MaxHolders: 2}.Names())
	// Output:
	// [mutex safe-store fencing]
	// [max-holders]
}

// A Locker's own script, named where it is declared: the simulator's
// traces show EVALSHA example_acquire … where they would show
// script:<the first 8 hex digits of its SHA1>.
var exampleAcquire = pattern.NameScript("example_acquire", redis.NewScript(
	`return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`))

func ExampleNameScript() {
	fmt.Println(pattern.ScriptName(exampleAcquire.Hash()))
	// Output: example_acquire
}
