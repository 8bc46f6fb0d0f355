package locksimtest_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/locksim/locksim/sim/scenario"
)

// guideRoot is the repository root, from this package's directory.
const guideRoot = ".."

// guideBlock is a fenced block of a Markdown guide: its tag, its text, the
// line its fence opens on and the file a "<!-- from: PATH -->" line just
// above it names ("" if none).
type guideBlock struct {
	tag, text, from string
	line            int
}

var fromLine = regexp.MustCompile(`^<!-- from: (\S+) -->$`)

func guideBlocks(t *testing.T, path string) []guideBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []guideBlock
	var cur *guideBlock
	var body []string
	prev := ""
	for i, l := range strings.Split(string(data), "\n") {
		switch {
		case !strings.HasPrefix(l, "```") && cur != nil:
			body = append(body, l)
		case !strings.HasPrefix(l, "```"):
			if strings.TrimSpace(l) != "" {
				prev = l
			}
		case cur == nil:
			cur, body = &guideBlock{tag: strings.TrimPrefix(l, "```"), line: i + 1}, nil
			if m := fromLine.FindStringSubmatch(prev); m != nil {
				cur.from = m[1]
			}
		default:
			cur.text = strings.Join(body, "\n") + "\n"
			out = append(out, *cur)
			cur, prev = nil, ""
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: a fenced block that never closes", path, cur.line)
	}
	return out
}

// TestYourLockGuide: every Go, scenario and text block of
// docs/your-lock.md is a verbatim excerpt of the compiled or tested file
// its from: line names (so the guide shows code that builds and runs), a
// scenario block also parses, every test a command in it runs with
// -run '^Name$' exists in examples/, and every go run ./cmd/NAME names a
// subcommand and flags that command defines.
func TestYourLockGuide(t *testing.T) {
	path := filepath.Join(guideRoot, "docs", "your-lock.md")
	blocks := guideBlocks(t, path)
	excerpts := 0
	for _, b := range blocks {
		switch b.tag {
		case "go", "scenario", "text":
			excerpts++
			checkExcerpt(t, path, b)
		case "sh":
			checkRunNames(t, path, b)
			checkGoRuns(t, path, b)
		}
	}
	if excerpts < 8 {
		t.Errorf("%s: %d excerpts; the guide's code blocks are not tagged as this test reads them", path, excerpts)
	}
}

func checkExcerpt(t *testing.T, path string, b guideBlock) {
	t.Helper()
	if b.from == "" {
		t.Errorf("%s:%d: a %s block without a <!-- from: PATH --> line above it", path, b.line, b.tag)
		return
	}
	src, err := os.ReadFile(filepath.Join(guideRoot, b.from))
	if err != nil {
		t.Errorf("%s:%d: %v", path, b.line, err)
		return
	}
	if !strings.Contains(string(src), b.text) {
		t.Errorf("%s:%d: the block is not a verbatim part of %s any more:\n%s", path, b.line, b.from, b.text)
	}
	if b.tag == "scenario" {
		if _, err := scenario.ParseString(b.text); err != nil {
			t.Errorf("%s:%d: %v", path, b.line, err)
		}
	}
}

var runName = regexp.MustCompile(`-run '\^(\w+)\$'`)

// goRun is a command of the examples module's own main: the command, its
// subcommand and its flags.
var (
	goRun   = regexp.MustCompile(`go run \./cmd/([\w-]+) (\w+)(.*)`)
	cmdFlag = regexp.MustCompile(` -([\w-]+)`)
)

// checkGoRuns: each go run ./cmd/NAME SUB -flag … of the guide names a
// subcommand and flags that examples/cmd/NAME/main.go defines.
func checkGoRuns(t *testing.T, path string, b guideBlock) {
	t.Helper()
	for _, l := range strings.Split(b.text, "\n") {
		l, _, _ = strings.Cut(l, "#")
		m := goRun.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		src, err := os.ReadFile(filepath.Join(guideRoot, "examples", "cmd", m[1], "main.go"))
		if err != nil {
			t.Errorf("%s:%d: %s: %v", path, b.line, l, err)
			continue
		}
		if !strings.Contains(string(src), `case "`+m[2]+`":`) {
			t.Errorf("%s:%d: %s: %s has no subcommand %s", path, b.line, l, m[1], m[2])
		}
		for _, f := range cmdFlag.FindAllStringSubmatch(m[3], -1) {
			if !strings.Contains(string(src), `("`+f[1]+`", `) {
				t.Errorf("%s:%d: %s: %s defines no flag -%s", path, b.line, l, m[1], f[1])
			}
		}
	}
}

// checkRunNames: each test a command runs exists in the examples module.
func checkRunNames(t *testing.T, path string, b guideBlock) {
	t.Helper()
	for _, m := range runName.FindAllStringSubmatch(b.text, -1) {
		files, err := filepath.Glob(filepath.Join(guideRoot, "examples", "*", "*_test.go"))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			found = found || strings.Contains(string(data), "\nfunc "+m[1]+"(t *testing.T)")
		}
		if !found {
			t.Errorf("%s:%d: -run '^%s$': no such test in examples/", path, b.line, m[1])
		}
	}
}
