package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestEveryHelpNamesExitCodes: every command's --help ends with the exit
// codes.
func TestEveryHelpNamesExitCodes(t *testing.T) {
	names := []string{""}
	for _, c := range newRoot().Commands() {
		names = append(names, c.Name())
	}
	if len(names) < 9 {
		t.Fatalf("commands %v: want every command", names)
	}
	for _, name := range names {
		args := []string{"--help"}
		if name != "" {
			args = []string{name, "--help"}
		}
		out, _, err := runCLI(t, args...)
		if err != nil {
			t.Fatalf("locksim %s --help: %v", name, err)
		}
		for _, want := range []string{"0 clean", "1 a violation", "2 bad usage", "3 the environment failed", "130 interrupted"} {
			if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
				t.Errorf("locksim %s --help lacks %q:\n%s", name, want, out)
			}
		}
	}
}

// TestReadmeExitCodeTable: the README's table lists exactly the codes
// the CLI uses.
func TestReadmeExitCodeTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\| (\d+) \| `)
	var got []int
	for _, m := range row.FindAllStringSubmatch(string(data), -1) {
		n, _ := strconv.Atoi(m[1])
		got = append(got, n)
	}
	want := []int{exitOK, exitViolation, exitUsage, exitRuntime, exitInterrupt}
	if !slices.Equal(got, want) {
		t.Errorf("README exit-code table rows %v, want %v", got, want)
	}
}

func TestVersion(t *testing.T) {
	a, _, err := runCLI(t, "version")
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := runCLI(t, "--version")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a, "locksim ") || a != b {
		t.Errorf("locksim version = %q, locksim --version = %q; want the same line naming locksim", a, b)
	}
}
