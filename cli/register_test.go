package cli

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/locksim/locksim/childproc"
	"github.com/locksim/locksim/pattern"
)

// mainPatternEnv names the pattern TestMain hands Main (mainWithPattern).
const mainPatternEnv = "LOCKSIM_TEST_MAIN_PATTERN"

// mainWithPattern runs Main on this process's arguments with one pattern
// of a user's: basic's constructor and claims, named name. It does not
// return.
func mainWithPattern(name string) {
	p, err := pattern.Lookup("basic")
	if err != nil {
		panic(err)
	}
	p.Name = name
	Main(p)
}

// mainCmd is Main, given a copy of basic named name, on args as a
// process of its own.
func mainCmd(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), mainPatternEnv+"="+name)
	return cmd
}

// TestMainRegistersPatterns: a pattern given to Main is one of the
// patterns of every command; one whose name is taken or that does not
// Validate is bad usage (exit 2), refused before any command runs.
func TestMainRegistersPatterns(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"mine", []string{"list"}, exitOK, "\nmine "},
		{"mine", []string{"run", "--pattern", "mine", "--scenario", "steady", "--seed", "1"}, exitOK, "pattern   mine (claims: mutex, progress, loss-signal)"},
		{"basic", []string{"list"}, exitUsage, "locksim: pattern basic: the name is taken"},
		{"my lock", []string{"list"}, exitUsage, `locksim: pattern: Name ("my lock") must be non-empty`},
	} {
		out, err := childproc.CombinedOutput(mainCmd(tc.name, tc.args...))
		code := exitOK
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code || !strings.Contains(string(out), tc.want) {
			t.Errorf("Main(%q) with %q: exit %d, want %d; output lacks %q:\n%s", tc.name, tc.args, code, tc.code, tc.want, out)
		}
	}
}

// TestRegisterRefusesBeforeRegistering: register stops at a pattern whose
// name is taken or that does not Validate, with an error naming it, and
// registers nothing in its place (so the registry's own panic is never
// reached).
func TestRegisterRefusesBeforeRegistering(t *testing.T) {
	basic, err := pattern.Lookup("basic")
	if err != nil {
		t.Fatal(err)
	}
	noNodes := basic
	noNodes.Name, noNodes.Nodes = "cli-test-no-nodes", 0
	for _, tc := range []struct {
		p    pattern.Pattern
		want string
	}{
		{basic, "pattern basic: the name is taken"},
		{noNodes, "pattern cli-test-no-nodes: Nodes (0) must be at least 1"},
	} {
		err := register([]pattern.Pattern{tc.p})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("register(%s) = %v, want an error containing %q", tc.p.Name, err, tc.want)
		}
		if _, err := pattern.Lookup("cli-test-no-nodes"); err == nil {
			t.Errorf("register(%s) registered cli-test-no-nodes", tc.p.Name)
		}
	}
}
