//go:build !unix

package safefile

// running says every process runs: without a way to ask, no temporary
// file is taken for stale.
func running(int) bool { return true }
