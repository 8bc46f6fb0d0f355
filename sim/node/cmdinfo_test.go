package node

import (
	"fmt"
	"sync"
	"testing"
)

// TestCmdInfoLookupsFromManyRuns: separate simulations run in parallel
// (the harness and explore run seeds side by side), and every node's
// scripts look command names up in one memo shared by the process. Under
// -race this fails if that memo is not guarded.
func TestCmdInfoLookupsFromManyRuns(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				spelling := fmt.Sprintf("%s%d", []string{"set", "Get", "pexpire", "zAdd"}[i%4], g*1000+i%50)
				if c := lookupCmdInfo(spelling); c.name == "" {
					t.Errorf("lookupCmdInfo(%q) has no name", spelling)
				}
			}
			if c := lookupCmdInfo("set"); c.check == nil {
				t.Error(`lookupCmdInfo("set") has no option check`)
			}
		})
	}
	wg.Wait()
}
