package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// lockName is the file, in a report's directory, that a report holds
// locked (flock) from its checks to its install: a second report into the
// same directory is refused instead of deleting the first one's staging
// or mixing its files into the first's. The kernel drops the lock when
// its holder dies, even killed outright.
const lockName = ".locksim-report.lock"

// errBusy marks a directory another report is writing.
var errBusy = errors.New("another locksim report is writing it")

// lock takes the directory's lock, creating the directory if it is
// missing (unlock removes it again if the report leaves it empty). A
// directory whose lock is held is refused, exit 3, naming the holder.
func (rd *reportDir) lock() error {
	if _, err := os.Stat(rd.dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(rd.dir, 0o755); err != nil {
			return runtimef("--out %s: %w", rd.dir, err)
		}
		rd.created = true
	}
	real, err := filepath.EvalSymlinks(rd.dir)
	if err != nil {
		rd.unlock()
		return runtimef("--out %s: %w", rd.dir, err)
	}
	rd.real = real
	f, err := lockFile(filepath.Join(rd.real, lockName))
	if errors.Is(err, errBusy) {
		rd.unlock()
		return runtimef("--out %s: %w (%s); nothing was written: wait for it to end, or give another --out", rd.dir, err, holder(filepath.Join(rd.real, lockName)))
	} else if err != nil {
		rd.unlock()
		return runtimef("--out %s: lock: %w", rd.dir, err)
	}
	rd.locks = append(rd.locks, f)
	return nil
}

// unlock removes the lock file and lets go of every lock the report
// holds; a directory lock made that the report left empty is removed.
func (rd *reportDir) unlock() {
	if rd.real != "" && len(rd.locks) > 0 {
		os.Remove(filepath.Join(rd.real, lockName)) // while still held: see lockFile
	}
	for _, f := range rd.locks {
		f.Close()
	}
	rd.locks = nil
	if rd.created {
		os.Remove(rd.dir) // only if empty
	}
}

// holder names the process that wrote its pid into the lock file.
func holder(path string) string {
	b, err := os.ReadFile(path)
	if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil {
		return fmt.Sprintf("pid %d", pid)
	}
	return "pid unknown"
}
