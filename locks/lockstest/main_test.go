package lockstest

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them, but
// childproc's starter, which runs for the life of the process once a test
// has started a redis-server.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/locksim/locksim/childproc.starter"))
}
