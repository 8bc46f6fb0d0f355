package reportdir

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

// Lock takes the directory's lock, creating the directory if it is
// missing (Unlock removes it again if the report leaves it empty). A
// directory whose lock is held is refused at once, naming the holder.
func (d *Dir) Lock() error {
	if _, err := os.Stat(d.dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(d.dir, 0o755); err != nil {
			return fmt.Errorf("--out %s: %w", d.dir, err)
		}
		d.created = true
	}
	real, err := filepath.EvalSymlinks(d.dir)
	if err != nil {
		d.Unlock()
		return fmt.Errorf("--out %s: %w", d.dir, err)
	}
	d.real = real
	f, err := lockFile(filepath.Join(d.real, lockName))
	if errors.Is(err, errBusy) {
		d.Unlock()
		return fmt.Errorf("--out %s: %w (%s); nothing was written: wait for it to end, or give another --out", d.dir, err, holder(filepath.Join(d.real, lockName)))
	} else if err != nil {
		d.Unlock()
		return fmt.Errorf("--out %s: lock: %w", d.dir, err)
	}
	d.locks = append(d.locks, f)
	return nil
}

// Unlock removes the lock file and lets go of every lock the report
// holds; a directory Lock made that the report left empty is removed.
func (d *Dir) Unlock() {
	if d.real != "" && len(d.locks) > 0 {
		os.Remove(filepath.Join(d.real, lockName)) // while still held: see lockFile
	}
	for _, f := range d.locks {
		f.Close()
	}
	d.locks = nil
	if d.created {
		os.Remove(d.dir) // only if empty
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
