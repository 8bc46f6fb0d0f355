// Package buildinfo says which locksim produced an output: the module
// version and the source commit, so that shards, reports and JSON outputs
// record what they were made from.
package buildinfo

import (
	"os/exec"
	"runtime/debug"
	"strings"
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

var commit = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" {
			if len(rev) > 7 {
				rev = rev[:7]
			}
			if dirty {
				rev += "-dirty"
			}
			return rev
		}
	}
	// go run and go test do not stamp the revision: ask git, if this is a
	// work tree.
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// Commit is the short hash of the source commit ("-dirty" when the binary
// was built from a modified tree), or "" when it cannot be told.
func Commit() string { return commit() }

// String is the one-line form `locksim version` prints.
func String() string {
	s := "locksim " + Version()
	if c := Commit(); c != "" {
		s += " (commit " + c + ")"
	}
	return s
}
