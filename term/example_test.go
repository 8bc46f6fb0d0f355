package term_test

import (
	"bytes"
	"fmt"

	"github.com/locksim/locksim/term"
)

// A writer that is not a terminal gets no progress bar.
func ExampleIsTerminal() {
	var buf bytes.Buffer
	fmt.Println(term.IsTerminal(&buf))
	// Output: false
}
