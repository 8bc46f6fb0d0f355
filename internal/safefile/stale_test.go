package safefile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/locksim/locksim/childproc"
)

// writerEnv makes the test binary a writer killed mid-write: it starts
// writing the file it names, says so, and waits to be killed.
const writerEnv = "SAFEFILE_TEST_WRITER"

func TestMain(m *testing.M) {
	if path := os.Getenv(writerEnv); path != "" {
		if _, err := Create(path); err != nil {
			fmt.Println("error:", err)
			os.Exit(3)
		}
		fmt.Println("writing")
		select {} // until killed
	}
	os.Exit(m.Run())
}

// A writer killed outright (SIGKILL) mid-write leaves its temporary file;
// the next write of the same path removes it, and nothing else: not a
// file of another name, not a temporary file of a process that runs.
func TestWriteRemovesTheTempOfAKilledWriter(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.json")
	writer := exec.Command(os.Args[0], "-test.run=^$")
	writer.Env = append(os.Environ(), writerEnv+"="+out)
	stdout, err := writer.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := childproc.Start(writer); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	_ = writer.Process.Kill()
	_ = writer.Wait()
	if line != "writing\n" {
		t.Fatalf("writer said %q, want writing", line)
	}
	left := names(t, dir)
	if len(left) != 1 || !strings.HasPrefix(left[0], ".out.tmp-") {
		t.Fatalf("a killed writer left %v, want its one temporary file", left)
	}
	keep := []string{
		".out.tmp-" + strconv.Itoa(os.Getpid()) + "-1.json", // a process that runs: this one
		".out.tmp-notes.json", ".out.tmp-1-2.txt", ".other.tmp-1-2.json", "out.tmp-1-2.json",
	}
	for _, k := range keep {
		if err := os.WriteFile(filepath.Join(dir, k), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Write(out, func(w io.Writer) error { _, err := io.WriteString(w, "{}"); return err }); err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(keep), "out.json")
	slices.Sort(want)
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Errorf("after the next write the directory holds %v, want %v", got, want)
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// A dangling symlink given as an output stays a symlink: its target is
// created, as a live link's target is replaced.
func TestWriteThroughADanglingSymlink(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target.txt"), filepath.Join(dir, "link.txt")
	if err := os.Symlink("target.txt", link); err != nil {
		t.Fatal(err)
	}
	if err := CheckWritable(link); err != nil {
		t.Errorf("CheckWritable(a dangling link) = %v", err)
	}
	if err := Write(link, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	st, err := os.Lstat(link)
	if data, _ := os.ReadFile(target); err != nil || st.Mode()&os.ModeSymlink == 0 || string(data) != "new" {
		t.Errorf("after writing through a dangling symlink: link mode %v (%v), target %q; want the link kept and the target written", st.Mode(), err, data)
	}
}
