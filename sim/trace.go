package sim

import (
	"bufio"
	"fmt"
	"io"

	"github.com/locksim/locksim/sim/oracle"
)

// tracer writes "t=1.250000s <line>" lines; a nil writer turns it off, and
// callers check on() before building a line.
type tracer struct {
	w   *bufio.Writer
	now func() int64
	buf []byte
}

func newTracer(w io.Writer, now func() int64) *tracer {
	t := &tracer{now: now}
	if w != nil {
		t.w = bufio.NewWriterSize(w, 64*1024)
	}
	return t
}

func (t *tracer) on() bool { return t.w != nil }

func (t *tracer) line(s string) {
	if t.w == nil {
		return
	}
	t.buf = append(t.buf[:0], "t="...)
	t.buf = oracle.AppendTime(t.buf, t.now())
	t.buf = append(t.buf, ' ')
	t.buf = append(t.buf, s...)
	t.buf = append(t.buf, '\n')
	_, _ = t.w.Write(t.buf)
}

func (t *tracer) printf(format string, a ...any) {
	if t.w != nil {
		t.line(fmt.Sprintf(format, a...))
	}
}

func (t *tracer) flush() error {
	if t.w == nil {
		return nil
	}
	return t.w.Flush()
}

// fmtT formats a true time for trace and violation texts.
func fmtT(ns int64) string { return oracle.FormatTime(ns) }
