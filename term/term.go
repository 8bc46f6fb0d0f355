package term

import (
	"io"
	"os"
)

// IsTerminal reports whether w is a character device (a terminal): an
// *os.File whose mode says so. Any other writer, a file or a pipe is not.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
