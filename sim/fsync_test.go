package sim

import (
	"bytes"
	"strings"
	"testing"
)

// fsyncScenario crashes n1 1.5s into a run of three fenced clients,
// restarting it 5ms later under persist=mode.
func fsyncScenario(mode string) string {
	return "start clients=3 ttl=100ms duration=3s\ncrash n1 at=1500ms for=5ms persist=" + mode + "\n"
}

// TestFsyncWindowRepeatsFenceTokens: under persist=everysec the restart
// takes the fence counter back to its last fsync point (1s), so the
// tokens granted in the half second before the crash are granted again;
// under persist=yes (appendfsync always) no token repeats.
func TestFsyncWindowRepeatsFenceTokens(t *testing.T) {
	p := lookupPattern(t, "fenced")
	for _, tc := range []struct {
		mode   string
		breaks bool
	}{{"everysec", true}, {"always", false}} {
		for seed := uint64(1); seed <= 5; seed++ {
			r := run(t, p, parseScenario(t, fsyncScenario(tc.mode)), seed)
			if got := r.Safety.FenceViolations > 0; got != tc.breaks {
				t.Errorf("persist=%s seed %d: fence violations %d, want any: %v", tc.mode, seed, r.Safety.FenceViolations, tc.breaks)
			}
		}
	}
}

// TestFsyncWindowTraceNamesTheLostWrites: the restart under everysec
// says how many acknowledged writes came after the last fsync and were
// lost.
func TestFsyncWindowTraceNamesTheLostWrites(t *testing.T) {
	var buf bytes.Buffer
	_, err := Run(Config{Pattern: lookupPattern(t, "fenced"), Scenario: parseScenario(t, fsyncScenario("everysec")), Seed: 1, Trace: &buf})
	if err != nil {
		t.Fatal(err)
	}
	tr := buf.String()
	i := strings.Index(tr, "write(s) after it lost")
	if i < 0 {
		t.Fatalf("trace has no restart under everysec:\n%s", tr)
	}
	line := tr[strings.LastIndex(tr[:i], "\n")+1 : i]
	if strings.Contains(line, "kept up to the last fsync, 0 ") {
		t.Errorf("restart line %q: no write lost, want the half second after 1s", line)
	}
}
