package locks

import "embed"

// sourceFiles are this package's own Go sources and scripts (package
// scripts' Lua and Go), as built: what lockbridge.CodeDigest hashes, the
// tests left out, to tell a verdict made by this lock code from one made
// by other.
//
//go:embed *.go scripts/*.lua scripts/*.go
var sourceFiles embed.FS
