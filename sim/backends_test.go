package sim

import (
	"bytes"
	"testing"

	"github.com/locksim/locksim/sim/node"
)

// TestBackendsAgree runs the patterns on native nodes and on miniredis
// nodes: the traces — every command, reply and verdict — must be
// identical. An end-to-end differential test of the native store, its
// twins and (fair, rwlock, semaphore, the broken variants' own scripts)
// its Lua engine.
func TestBackendsAgree(t *testing.T) {
	for _, pn := range []string{"basic", "reentrant", "watchdog", "service", "fenced", "redlock",
		"fair", "rwlock", "semaphore", "fair-clock-queue", "rwlock-shared-count"} {
		p := lookupPattern(t, pn)
		for _, scen := range []string{"gc-pause", "node-clock-jump", "failover-async-replication", "node-restart-without-persistence", "partition"} {
			s := builtin(t, scen, p)
			var traces [2]bytes.Buffer
			for i, b := range []node.Backend{node.BackendNative, node.BackendMini} {
				if _, err := Run(Config{Pattern: p, Scenario: s, Seed: 5, Trace: &traces[i], Backend: b}); err != nil {
					t.Fatalf("%s %s %s: %v", pn, scen, b, err)
				}
			}
			if !bytes.Equal(traces[0].Bytes(), traces[1].Bytes()) {
				t.Errorf("%s under %s: native and miniredis traces differ:\n%s", pn, scen, lineDiff(traces[0].String(), traces[1].String()))
			}
		}
	}
}
