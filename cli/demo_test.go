package cli

import (
	"bytes"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	root := newRoot()
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errb)
	err = root.Execute()
	return out.String(), errb.String(), err
}

func TestDemoShowsEveryPattern(t *testing.T) {
	out, _, err := runCLI(t, "demo")
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	for _, want := range []string{
		"client B tries: acquire \"demo:basic\": locks: lock not acquired",
		"lock not held (A's key is untouched)",
		"entered 3 times: count 3",
		"released 3 times: key exists = false",
		"lease valid = true",
		"renewal stopped, key exists = false",
		"then acquired",
		"acquired on the other 3 (quorum 3)",
		"locks: nodes unavailable (locked 2 of the 3 needed, 3 nodes unreachable)",
		"writes with token 1: rejected: token 1 is older than 2",
		`store holds "B" from token 2`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q; output:\n%s", want, out)
		}
	}
}

func TestUnknownCommandIsUsageError(t *testing.T) {
	if code := run([]string{"no-such-command"}); code != exitUsage {
		t.Errorf("run(no-such-command) = %d, want %d", code, exitUsage)
	}
	if code := run([]string{"demo", "--no-such-flag"}); code != exitUsage {
		t.Errorf("run(demo --no-such-flag) = %d, want %d", code, exitUsage)
	}
}
