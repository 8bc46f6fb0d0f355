package scenario

import (
	"strings"
	"testing"
)

// TestEveryZeroIsRefused: every=0s is refused as every=exp(0s) is, with
// one message: no gap is no schedule.
func TestEveryZeroIsRefused(t *testing.T) {
	const want = "line 2: pause: field every: 0s, want a positive gap (leave every= out for one occurrence)"
	for _, every := range []string{"0s", "0", "exp(0s)", "uniform(0ms)", "-1s"} {
		_, err := ParseString("start\npause c1 every=" + every + " for=10ms\n")
		w := want
		if every == "-1s" {
			w = strings.Replace(want, "0s", "-1s", 1)
		}
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("every=%s: %v, want %q", every, err, w)
		}
	}
}

// TestTriggerTargetNamed: a bad name in a triggered fault is the error of
// the field that holds it, and the error names it.
func TestTriggerTargetNamed(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"pause c9 on=write for=1ms", "line 2: pause: field target: c9, but the run has 2 clients"},
		{"pause x9 on=write for=1ms", `line 2: pause: field target: "x9" is not a client (c1, c2, …)`},
		{"pause c2 on=c9:release-sent for=1ms", "line 2: pause: field on: c9, but the run has 2 clients (on=c9:release-sent)"},
		{"pause c2 on=x9:write for=1ms", `line 2: pause: field on: "x9" is not a client (c1, c2, …) (on=x9:write)`},
		{"pause c2 on=c1:frob-sent for=1ms", `line 2: pause: field on: unknown call kind "frob" in on=c1:frob-sent (known: acquire, release, extend, renew, read, write)`},
		{"pause c2 on=c1:bogus for=1ms", `line 2: pause: field on: unknown point "bogus" in on=c1:bogus (known: acquired,`},
		{"crash n1 on=write", `line 2: crash: field on: "write": name the client whose point it is (on=c1:write)`},
	} {
		_, err := ParseString("start clients=2\n" + tc.line + "\n")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.line, err, tc.want)
		}
	}
}
