package redistest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"
)

// logs records go-redis's internal log lines.
type logs struct {
	mu    sync.Mutex
	lines []string
}

func (l *logs) Printf(_ context.Context, format string, a ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, a...))
}

// Start waits for each server to listen before go-redis dials it, so that
// a caller (bench --spawn) sees no "connection refused" from start-up.
func TestStartDialsNothingBeforeTheServerListens(t *testing.T) {
	if !Available() {
		Require(t, 0) // skips, or fails under CI=true
	}
	var l logs
	redis.SetLogger(&l)
	t.Cleanup(func() { redis.SetLogger(discard{}) }) // the package's other tests want no go-redis lines
	ss := Require(t, 3)
	if len(ss) != 3 {
		t.Fatalf("%d servers, want 3", len(ss))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.lines {
		if strings.Contains(line, "connection refused") {
			t.Errorf("go-redis logged during start-up: %s", line)
		}
	}
}

// discard drops go-redis's log lines.
type discard struct{}

func (discard) Printf(context.Context, string, ...any) {}
