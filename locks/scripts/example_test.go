package scripts_test

import (
	"fmt"
	"strings"

	"github.com/locksim/locksim/locks/scripts"
)

// Source gives a script's full source, its libraries first, by the name
// the patterns (and the simulator's traces) give it.
func ExampleSource() {
	src := scripts.Source("release")
	fmt.Println(strings.SplitN(src, "\n", 2)[0])
	_, fenced := scripts.All()["fenced_acquire"]
	fmt.Println(fenced)
	// Output:
	// -- Owner-checked release: delete KEYS[1] only if it holds ARGV[1] (the token).
	// true
}
