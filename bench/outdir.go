package bench

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// summaryTitle is the first line of the README.md WriteSummary writes: a
// README.md that does not begin with it is someone else's.
const summaryTitle = "# locksim benchmarks"

// ReportFiles are the names WriteReport may write into its directory for
// a sweep over keys: the data, the summary and every plot (PNG and SVG),
// sorted.
func ReportFiles(keys []KeyMode) []string {
	names := []string{FileRows, FileSamples, FileJSON, FileSummary}
	plots := []string{"redlock-nodes"}
	for _, k := range keys {
		plots = append(plots, "throughput-"+string(k), "latency-"+string(k))
	}
	if slices.Contains(keys, Hot) {
		plots = append(plots, "contention")
	}
	for _, p := range plots {
		names = append(names, p+".png", p+".svg")
	}
	slices.Sort(names)
	return names
}

// CheckReportDir refuses, before anything is measured, a directory
// WriteReport would fail in or write over what is not its own: one of
// ReportFiles that exists and is not a regular file (a directory, a
// device), or a README.md that bench did not write (it does not begin
// with the summary's title). A missing directory passes (WriteReport
// creates it); whether it can be created is safefile.CheckWritableDir's.
func CheckReportDir(dir string, keys []KeyMode) error {
	for _, name := range ReportFiles(keys) {
		path := filepath.Join(dir, name)
		st, err := os.Stat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return err
		case st.IsDir():
			return fmt.Errorf("%s is a directory, where bench writes its %s", path, name)
		case !st.Mode().IsRegular():
			return fmt.Errorf("%s is not a regular file, where bench writes its %s", path, name)
		}
	}
	return checkSummaryOwned(filepath.Join(dir, FileSummary))
}

// checkSummaryOwned refuses a README.md at path that bench did not write.
func checkSummaryOwned(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	defer f.Close()
	first, _ := bufio.NewReader(f).ReadString('\n')
	if first != summaryTitle+"\n" {
		return fmt.Errorf("%s was not written by locksim bench (it does not begin with %q): move it, or give another directory", path, summaryTitle)
	}
	return nil
}
