package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunScheduleShowsRates: a scenario file with a fault schedule runs,
// exits 1 on the overlap its pauses cause, and prints the violation rates
// per simulated hour and per million acquisitions beside the counts, and
// the firing record of every occurrence.
func TestRunScheduleShowsRates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "storm.txt")
	text := "scenario storm\nstart clients=3 ttl=100ms duration=10s\nworkload prep=20ms\npause c* every=exp(1s) for=exp(50ms)\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "run", "--pattern", "basic", "--scenario", path, "--seed", "5")
	if got := exitCode(err); got != exitViolation {
		t.Fatalf("exit %d (err %v), want %d:\n%s", got, err, exitViolation, out)
	}
	for _, want := range []string{"VIOLATED: mutex", "violations of basic's claims per simulated hour", "per million acquisitions", "faults    fired: "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "rates     0 violations of basic's claims") {
		t.Errorf("a violating run reports a zero rate:\n%s", out)
	}
}
