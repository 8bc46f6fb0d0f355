package locks

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"slices"
	"strings"
	"sync"
)

// sourceFiles are this package's own Go sources and scripts, as built:
// what CodeDigest hashes.
//
//go:embed *.go scripts/*.lua
var sourceFiles embed.FS

// CodeDigest is a digest (hex SHA-256) of the lock code as built: every
// Go source of this package but its tests, and every script. A verdict
// recorded with one digest was made by other lock code than a binary
// with another (real mode's agreement cells record it to tell a stale
// cell from a fresh one).
func CodeDigest() string { return codeDigest() }

var codeDigest = sync.OnceValue(func() string { return DigestSources(sourceFiles) })

// Sources are the files CodeDigest hashes (with this package's tests).
func Sources() fs.FS { return sourceFiles }

// DigestSources is CodeDigest of the lock code in fsys, laid out as
// Sources: its Go files but the tests, and scripts/*.lua.
func DigestSources(fsys fs.FS) string {
	h := sha256.New()
	var names []string
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, "_test.go") {
			names = append(names, p)
		}
		return nil
	})
	slices.Sort(names)
	for _, n := range names {
		b, _ := fs.ReadFile(fsys, n)
		h.Write([]byte(n + "\x00"))
		h.Write(b)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
