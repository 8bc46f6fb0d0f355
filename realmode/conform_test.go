package realmode

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// breakEnv makes the test client misbehave in one way (see breaker).
const breakEnv = "LOCKSIM_REALMODE_TEST_BREAK"

// brokenClientMain is ClientMain whose messages pass through a breaker.
func brokenClientMain(mode string) int {
	if name := os.Getenv(describeEnv); name != "" {
		return describe(os.Stdout, misbehaving, name)
	}
	err := runClient(newConn(os.Stdin, &breaker{mode: mode, w: os.NewFile(3, "events")}), misbehaving)
	if err == nil || errors.Is(err, errStop) || errors.Is(err, io.EOF) {
		return 0
	}
	return 1
}

// breaker rewrites a client's message lines, one fault a mode:
//
//	missing-field  a point message without its point
//	wrong-kind     a read message of kind "raed"
//	early-exit     exits (status 0) at its first point
//	no-version     a ready message without its protocol
//	unknown-field  every message with a field "extra"
//	no-fatal       exits (status 1) instead of sending a fatal message
type breaker struct {
	mode string
	w    io.Writer
}

func (b *breaker) Write(line []byte) (int, error) {
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		return 0, err
	}
	switch kind := m["kind"]; {
	case b.mode == "missing-field" && kind == msgPoint:
		delete(m, "point")
	case b.mode == "wrong-kind" && kind == msgRead:
		m["kind"] = "raed"
	case b.mode == "early-exit" && kind == msgPoint:
		os.Exit(0)
	case b.mode == "no-version" && kind == msgReady:
		delete(m, "protocol")
	case b.mode == "unknown-field":
		m["extra"] = 1
	case b.mode == "no-fatal" && kind == msgFatal:
		os.Exit(1)
	}
	out, err := json.Marshal(m)
	if err != nil {
		return 0, err
	}
	if _, err := b.w.Write(append(out, '\n')); err != nil {
		return 0, err
	}
	return len(line), nil
}

func checkClient(t *testing.T, env ...string) Conformance {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := CheckClient(ctx, []string{os.Args[0]}, append([]string{clientEnv}, env...), "basic", "")
	if left := children(t); len(left) > 0 {
		t.Errorf("processes left running after the check: %v", left)
	}
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	c.Write(&b)
	t.Log("\n" + b.String())
	return c
}

// TestCheckClientPassesTheGoClient: the Go client passes every step, and
// the run received every required kind and a stall (the pause).
func TestCheckClientPassesTheGoClient(t *testing.T) {
	needRedis(t)
	c := checkClient(t)
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
	if len(c.Steps) != 4 {
		t.Fatalf("%d steps, want 4 (describe, two refusals, run): %+v", len(c.Steps), c.Steps)
	}
	if run := c.Steps[3].Detail; !strings.Contains(run, "check ") || !strings.Contains(run, "stall ") {
		t.Errorf("run step %q: want check and stall messages counted", run)
	}
}

// TestCheckClientCatchesBrokenClients: each broken variant fails the
// check, with an error that names its fault.
func TestCheckClientCatchesBrokenClients(t *testing.T) {
	needRedis(t)
	for _, tc := range []struct{ mode, step, want string }{
		{"missing-field", "run", `field "point": "" is not a workload point`},
		{"wrong-kind", "run", `field "kind": "raed" is not a message kind`},
		{"early-exit", "run", "exited with status 0 before the run ended"},
		{"no-version", "run", `field "protocol": missing`},
		{"unknown-field", "run", `unknown field "extra"`},
		{"no-fatal", "fatal (unknown subject)", "exited without a fatal message"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			c := checkClient(t, breakEnv+"="+tc.mode)
			err := c.Err()
			if err == nil {
				t.Fatalf("the %s client passed the check", tc.mode)
			}
			for _, s := range c.Steps {
				if s.Name == tc.step {
					if s.OK || !strings.Contains(s.Detail, tc.want) {
						t.Errorf("step %s: ok=%v %q, want it failed naming %q", s.Name, s.OK, s.Detail, tc.want)
					}
					return
				}
			}
			t.Errorf("no step %q in %+v", tc.step, c.Steps)
		})
	}
}
