// Package buildinfo says which locksim produced an output: the module
// version and the source commit, so that shards, reports and JSON outputs
// record what they were made from.
//
// The commit is the one the binary was built from, or unknown; never a
// guess. It comes from, in order: the linker's stamp (make stamps every
// binary it builds or runs with -ldflags "-X
// github.com/locksim/locksim/internal/buildinfo.stamp=REV", REV from git
// rev-parse, with -dirty for a modified tree); else the go command's own
// VCS stamp (debug.ReadBuildInfo's vcs.revision and vcs.modified).
//
// The go command stamps only what go build and go install make (not go
// run, not go test), and only in a repository it recognises by a .git
// directory: a linked git worktree (git worktree add), whose .git is a
// file, gets no stamp, or the revision of an enclosing repository when the
// worktree lies inside one (golang/go#58218, open as of Go 1.26). A
// binary whose source root was a linked worktree therefore ignores the go
// command's stamp, and reports the commit as unknown unless the linker
// stamped it.
package buildinfo

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
)

// Version is the module version of the running binary ("devel" for a
// build from a work tree, as go run and go test make).
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Version == "" || bi.Main.Version == "(devel)" {
		return "devel"
	}
	return bi.Main.Version
}

// stamp is the commit the linker was told (-ldflags -X, see the package
// doc): a short hash, "-dirty" when the tree was modified.
var stamp string

var commit = sync.OnceValue(func() string {
	bi, _ := debug.ReadBuildInfo()
	return commitOf(stamp, bi, sourceRoot())
})

// commitOf decides the commit from the linker's stamp, the build
// information and the module's source root at build time ("" when the
// build trimmed paths): "" when it cannot be told.
func commitOf(stamp string, bi *debug.BuildInfo, root string) string {
	if stamp != "" {
		return stamp
	}
	if bi == nil || linkedWorktree(root) {
		return ""
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return ""
	}
	if len(rev) > 7 {
		rev = rev[:7]
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}

// sourceRoot is the module's directory when this binary was built (two
// levels above this file), or "" when the build trimmed paths.
func sourceRoot() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

// linkedWorktree reports whether root is a linked git worktree: its .git
// is a file naming the repository's real one.
func linkedWorktree(root string) bool {
	if root == "" {
		return false
	}
	st, err := os.Stat(filepath.Join(root, ".git"))
	return err == nil && st.Mode().IsRegular()
}

// Commit is the short hash of the source commit ("-dirty" when the binary
// was built from a modified tree), or "" when it cannot be told.
func Commit() string { return commit() }

// String is the one-line form `locksim version` prints: "(commit
// unknown)" when the commit cannot be told.
func String() string {
	c := Commit()
	if c == "" {
		c = "unknown"
	}
	return "locksim " + Version() + " (commit " + c + ")"
}
