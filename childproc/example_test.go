package childproc_test

import (
	"fmt"
	"os/exec"

	"github.com/locksim/locksim/childproc"
)

// A command run with childproc dies with this process if this process is
// killed while it runs; otherwise it behaves as exec.Cmd's Output.
func ExampleOutput() {
	out, err := childproc.Output(exec.Command("echo", "hello"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output: hello
}
