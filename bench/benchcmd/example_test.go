package benchcmd_test

import (
	"fmt"
	"io"

	"github.com/locksim/locksim/bench/benchcmd"
)

// The bench command refuses a value that cannot work before it starts
// any server, with an error naming the flag, and maps it to exit status
// 2 (usage).
func ExampleNew() {
	cmd := benchcmd.New(nil, "")
	cmd.SetArgs([]string{"--clients", "0"})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	err := cmd.Execute()
	fmt.Println(err)
	fmt.Println("usage:", benchcmd.IsUsage(err), "exit:", benchcmd.ExitCode(err))
	// Output:
	// bench: clients (0) must be at least 1
	// usage: true exit: 2
}
