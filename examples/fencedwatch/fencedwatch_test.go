package fencedwatch_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/locksim/locksim/childproc"
	"github.com/locksim/locksim/examples/fencedwatch"
	"github.com/locksim/locksim/locksimtest"
)

// gate is how this module gates its lock: every built-in scenario plus our
// own, our expectations file; counterexamples go to dir ("" for the
// harness's testdata/locksim, kept after a failing run).
func gate(dir string) locksimtest.Options {
	return locksimtest.Options{
		Seeds:      5, // -locksim.seeds 100 looks deeper
		Scenarios:  []string{"testdata/long-pause.txt"},
		ExpectFile: "testdata/expect.txt",
		Dir:        dir,
	}
}

// TestFencedWatch gates the lock in the simulator: every claim holds
// except where testdata/expect.txt says it breaks, and there it must.
func TestFencedWatch(t *testing.T) {
	locksimtest.Run(t, fencedwatch.Pattern, gate(""))
}

// TestSeams: the lock calls no wall clock, no real sleep, no bare go.
func TestSeams(t *testing.T) {
	locksimtest.Lint(t, ".")
}

// brokenEnv makes TestBrokenVariantGated run (in the subprocess of
// TestGateFailsOnBrokenVariant).
const brokenEnv = "FENCEDWATCH_GATE_BROKEN"

// TestBrokenVariantGated gates the broken twin with the same expectations
// (their lines are the correct lock's; the twin makes the same claims). It
// must fail; it runs only inside TestGateFailsOnBrokenVariant.
func TestBrokenVariantGated(t *testing.T) {
	if os.Getenv(brokenEnv) == "" {
		t.Skip("run by TestGateFailsOnBrokenVariant, which expects it to fail")
	}
	o := gate(t.TempDir())
	o.ExpectFile = ""
	o.Expect = []string{
		"failover-async-replication        may safe-store,fencing",
		"node-restart-without-persistence  may safe-store,fencing",
	}
	locksimtest.Run(t, fencedwatch.Broken, o)
}

// TestGateFailsOnBrokenVariant runs `go test -run TestBrokenVariantGated`
// (this test binary, again) and checks that it fails, naming the claim,
// the seed, the counterexample and the replay command.
func TestGateFailsOnBrokenVariant(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenVariantGated$", "-test.count=1")
	cmd.Env = append(os.Environ(), brokenEnv+"=1")
	out, err := childproc.CombinedOutput(cmd)
	if err == nil {
		t.Fatalf("the gate passed the broken variant:\n%s", out)
	}
	if _, ok := err.(*exec.ExitError); !ok {
		t.Fatalf("running the test binary: %v", err)
	}
	for _, want := range []string{
		"--- FAIL: TestBrokenVariantGated",
		"fencedwatch-clockfence under client-clock-jump: claim fencing broken at seed ",
		"counterexample: ",
		"porcupine page: ",
		"replay: go test -count=1 -run '^TestBrokenVariantGated$' -locksim.scenario=client-clock-jump -locksim.seed=",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the failing gate's output lacks %q:\n%s", want, out)
		}
	}
}
