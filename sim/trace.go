package sim

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
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
	t.buf = appendTime(t.buf, t.now())
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

// appendTime writes ns of true time as seconds with microseconds: 1.250000s.
func appendTime(b []byte, ns int64) []byte {
	if ns < 0 {
		b = append(b, '-')
		ns = -ns
	}
	b = strconv.AppendInt(b, ns/1e9, 10)
	b = append(b, '.')
	us := strconv.AppendInt(nil, (ns%1e9)/1e3, 10)
	for range 6 - len(us) {
		b = append(b, '0')
	}
	b = append(b, us...)
	return append(b, 's')
}

// fmtT formats a true time for trace and violation texts.
func fmtT(ns int64) string { return string(appendTime(nil, ns)) }
