package term

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// TestIsTerminal: a regular file, a pipe, a plain writer and a nil file
// are not terminals; /dev/tty, when the process has one, is.
func TestIsTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "progress")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	var nilFile *os.File
	for _, tc := range []struct {
		name string
		w    io.Writer
	}{{"file", f}, {"pipe", w}, {"buffer", &bytes.Buffer{}}, {"nil file", nilFile}, {"nil", nil}} {
		if IsTerminal(tc.w) {
			t.Errorf("IsTerminal(%s) = true, want false", tc.name)
		}
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !IsTerminal(tty) {
			t.Error("IsTerminal(/dev/tty) = false, want true")
		}
	}
}
