package buildinfo

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/locksim/locksim/childproc"
)

// gitRepo makes a git repository with one commit in a fresh directory and
// returns the directory and the commit's hash.
func gitRepo(t *testing.T) (dir, hash string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git not found on PATH, and CI=true requires the commit tests to run")
		}
		t.Skip("git not installed")
	}
	dir = t.TempDir()
	for _, args := range [][]string{
		{"init", "-q"},
		{"-c", "user.email=t@example.org", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "x"},
	} {
		if out, err := childproc.CombinedOutput(exec.Command("git", append([]string{"-C", dir}, args...)...)); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	out, err := childproc.Output(exec.Command("git", "-C", dir, "rev-parse", "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, strings.TrimSpace(string(out))
}

// TestCommitIgnoresTheWorkingDirectory: the commit is the binary's, never
// that of the repository the user runs it in. (First in the file: Commit
// is decided once per process.)
func TestCommitIgnoresTheWorkingDirectory(t *testing.T) {
	dir, hash := gitRepo(t)
	t.Chdir(dir)
	if c := Commit(); c != "" && strings.HasPrefix(hash, strings.TrimSuffix(c, "-dirty")) {
		t.Errorf("Commit() = %q, the commit of the working directory's repository (%s)", c, hash)
	}
}

func TestStringNamesVersion(t *testing.T) {
	s := String()
	if !strings.HasPrefix(s, "locksim "+Version()) {
		t.Fatalf("String() = %q, want it to start with %q", s, "locksim "+Version())
	}
	if c := Commit(); c != "" && !strings.Contains(s, c) {
		t.Fatalf("String() = %q does not name commit %q", s, c)
	}
	if c := Commit(); c == "" && !strings.Contains(s, "(commit unknown)") {
		t.Fatalf("String() = %q, want it to say the commit is unknown", s)
	}
}

// TestCommitOf: the linker's stamp wins; Go's VCS stamp counts, with
// -dirty, unless the source root was a linked git worktree (whose .git is
// a file: Go then stamps an enclosing repository's revision, if any);
// nothing else tells the commit.
func TestCommitOf(t *testing.T) {
	plain, worktree := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(plain, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(worktree, ".git"), []byte("gitdir: /elsewhere/.git/worktrees/w\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	vcs := func(modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: modified}}}
	}
	for _, c := range []struct {
		name, stamp string
		bi          *debug.BuildInfo
		root        string
		want        string
	}{
		{"the linker's stamp", "fedcba9-dirty", vcs("false"), plain, "fedcba9-dirty"},
		{"the linker's stamp in a worktree", "fedcba9", vcs("false"), worktree, "fedcba9"},
		{"Go's stamp", "", vcs("false"), plain, "0123456"},
		{"Go's stamp of a modified tree", "", vcs("true"), plain, "0123456-dirty"},
		{"Go's stamp, the source gone", "", vcs("false"), filepath.Join(plain, "gone"), "0123456"},
		{"Go's stamp, the paths trimmed", "", vcs("false"), "", "0123456"},
		{"Go's stamp of an enclosing repository", "", vcs("false"), worktree, ""},
		{"no stamp", "", &debug.BuildInfo{}, plain, ""},
		{"no build information", "", nil, plain, ""},
	} {
		if got := commitOf(c.stamp, c.bi, c.root); got != c.want {
			t.Errorf("%s: commitOf = %q, want %q", c.name, got, c.want)
		}
	}
}
