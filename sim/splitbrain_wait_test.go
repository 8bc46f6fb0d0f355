package sim

import (
	"bytes"
	"strings"
	"testing"
)

// TestSplitBrainOldSideWaitTimesOut: on the old side of a split brain the
// old primary has lost its replicas, so a WAIT 1 sent there blocks for its
// timeout and answers 0, as Redis's does; it is not refused at once. c1,
// cut off with the old primary, is never granted the lock from 1s to 2s
// (its grants there are never acknowledged).
func TestSplitBrainOldSideWaitTimesOut(t *testing.T) {
	s := parseScenario(t, "start clients=2 ttl=100ms duration=3s\nreplicas n=2 delay=5ms\npattern wait-replicas=1 wait-timeout=50ms\nsplitbrain n1 at=1s for=1s old=c1\n")
	trace := output(t, lookupPattern(t, "basic"), s, 1)
	trace, _, _ = bytes.Cut(trace, []byte("----\n"))
	var waits, zeros int
	for _, line := range strings.Split(string(trace), "\n") {
		at, rest, ok := strings.Cut(line, "s ")
		if !ok || at < "t=1.0" || at >= "t=2.0" {
			continue
		}
		if strings.Contains(rest, "ERR WAIT") {
			t.Errorf("old side's WAIT refused: %s", line)
		}
		if strings.HasPrefix(rest, "c1 acquired") {
			t.Errorf("c1 granted on the old side without a replica: %s", line)
		}
		if strings.HasPrefix(rest, "c1→n1 WAIT") || strings.HasPrefix(rest, "c1→n1 wait") {
			waits++
		}
		if rest == "c1←n1 0" {
			zeros++
		}
	}
	if waits == 0 || zeros == 0 {
		t.Errorf("c1 sent %d WAITs to the old primary, %d answered 0: want some of each\n%s", waits, zeros, trace)
	}
}
