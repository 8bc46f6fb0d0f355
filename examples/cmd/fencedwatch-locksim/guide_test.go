package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/childproc"
)

// guidePath is docs/your-lock.md, from this package's directory.
const guidePath = "../../../docs/your-lock.md"

// guideCommands returns the lines of the guide's sh block that builds and
// runs this command, after its "cd examples".
func guideCommands(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(guidePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range strings.Split(string(data), "```sh\n")[1:] {
		body, _, _ := strings.Cut(block, "```")
		if !strings.Contains(body, "./cmd/fencedwatch-locksim") {
			continue
		}
		var lines []string
		for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
			if l, _, _ = strings.Cut(l, "#"); strings.TrimSpace(l) != "" && l != "cd examples" {
				lines = append(lines, strings.TrimSpace(l))
			}
		}
		return lines
	}
	t.Fatalf("%s: no sh block builds ./cmd/fencedwatch-locksim", guidePath)
	return nil
}

// TestGuideCommands runs docs/your-lock.md's commands for this binary as
// the guide gives them, from examples/ (its /tmp paths moved into the
// test's own directories): the build, a run, the gate on its own
// expectations and a report beside a built-in. Each must exit 0, and the
// report must be written where the guide says.
func TestGuideCommands(t *testing.T) {
	cmds := guideCommands(t)
	if len(cmds) < 4 {
		t.Fatalf("the guide's block has %d commands (%q); want the build, run, check and report", len(cmds), cmds)
	}
	dir := t.TempDir()
	bin, report := filepath.Join(dir, "fencedwatch-locksim"), filepath.Join(dir, "fencedwatch-report")
	t.Chdir("../..")
	for _, c := range cmds {
		c = strings.ReplaceAll(c, "/tmp/fencedwatch-locksim", bin)
		c = strings.ReplaceAll(c, "/tmp/fencedwatch-report", report)
		f := strings.Fields(c)
		out, err := childproc.CombinedOutput(exec.Command(f[0], f[1:]...))
		if code := exitCode(t, err); code != 0 {
			t.Fatalf("the guide's %q: exit %d, want 0:\n%s", c, code, out)
		}
	}
	if _, err := os.Stat(filepath.Join(report, "README.md")); err != nil {
		t.Errorf("the guide's report command wrote no README.md: %v", err)
	}
}
