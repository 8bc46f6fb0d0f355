package sim

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/locksim/locksim/sim/scenario"
)

// mechanismsFile holds data-driven blocks, as raft's testdata does: each
// a line "run pattern=P seed=N grep=RE", a few lines of scenario, a line
// "----", and the lines of the run's trace that RE selects. Where a
// whole-run golden trace (testdata/*.txt) is hundreds of lines, a block
// shows one mechanism in a few, and its diff reads as a change of that
// mechanism.
const mechanismsFile = "testdata/mechanisms/mechanisms.txt"

// block is one run of the mechanisms file.
type block struct {
	text    string // the comment lines before it, the run line, the scenario and "----"
	pattern string
	seed    uint64
	grep    *regexp.Regexp
	input   string // the scenario
	want    string // the selected trace lines
}

// TestMechanisms runs every block of testdata/mechanisms/mechanisms.txt
// and compares the trace lines its grep selects with the block's output;
// -update rewrites them.
func TestMechanisms(t *testing.T) {
	data, err := os.ReadFile(mechanismsFile)
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := parseBlocks(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) < 7 {
		t.Fatalf("%d blocks; the file shows grant, renewal, loss, fence, failover, WAIT and split brain", len(blocks))
	}
	var out strings.Builder
	for i, b := range blocks {
		s, err := scenario.ParseString(b.input)
		if err != nil {
			t.Fatalf("block %d: %v", i+1, err)
		}
		got := selectLines(goldenRun(t, b.pattern, s, b.seed).String(), b.grep)
		if got == "" {
			t.Errorf("block %d (%s): its grep selects no line of the trace: it shows nothing", i+1, b.pattern)
		}
		if !*update && got != b.want {
			t.Errorf("block %d (%s seed %d): the trace lines differ (go test ./sim -run TestMechanisms -update, then review the diff):\n%s", i+1, b.pattern, b.seed, lineDiff(b.want, got))
		}
		out.WriteString(b.text + got)
	}
	if *update {
		if err := os.WriteFile(mechanismsFile, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// parseBlocks splits the file into its blocks. A block's output runs from
// "----" to the first blank line.
func parseBlocks(data string) ([]block, error) {
	var out []block
	var text strings.Builder
	lines := strings.SplitAfter(data, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if !strings.HasPrefix(line, "run ") {
			text.WriteString(line)
			continue
		}
		b := block{}
		var grep string
		if _, err := fmt.Sscanf(strings.TrimSpace(line), "run pattern=%s seed=%d grep=%s", &b.pattern, &b.seed, &grep); err != nil || grep == "" {
			return nil, fmt.Errorf("line %d: %q: %v (want run pattern=P seed=N grep=RE)", i+1, line, err)
		}
		re, err := regexp.Compile(strings.TrimSpace(strings.SplitN(line, "grep=", 2)[1]))
		if err != nil {
			return nil, fmt.Errorf("line %d: grep: %v", i+1, err)
		}
		b.grep = re
		text.WriteString(line)
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "----"; i++ {
			b.input += lines[i]
			text.WriteString(lines[i])
		}
		if i == len(lines) {
			return nil, fmt.Errorf("block of line %q: no ---- line", strings.TrimSpace(line))
		}
		text.WriteString(lines[i])
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
			b.want += lines[i]
		}
		b.text = text.String()
		text.Reset()
		if i < len(lines) {
			text.WriteString(lines[i]) // the blank line that ends the block
		}
		out = append(out, b)
	}
	return out, nil
}

// selectLines returns the lines of trace that re matches.
func selectLines(trace string, re *regexp.Regexp) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(trace, "\n") {
		if l != "" && re.MatchString(l) {
			b.WriteString(l)
		}
	}
	return b.String()
}

// TestParseBlocks: a block's output ends at its blank line, a block with
// no ---- or no grep is refused, and a changed output line is a
// difference the comparison sees.
func TestParseBlocks(t *testing.T) {
	text := "# c\nrun pattern=basic seed=2 grep=acquired|FAULT\nstart clients=2\n----\nt=1 c1 acquired\n\nrun pattern=fenced seed=1 grep=x\nstart clients=1\n----\nt=2 x\n"
	bs, err := parseBlocks(text)
	if err != nil || len(bs) != 2 || bs[0].pattern != "basic" || bs[0].seed != 2 || bs[0].want != "t=1 c1 acquired\n" || bs[1].input != "start clients=1\n" {
		t.Fatalf("parseBlocks = %+v, %v", bs, err)
	}
	if got := selectLines("t=1 c1 acquired\nt=2 c1 read\nt=3 FAULT pause\n", bs[0].grep); got != "t=1 c1 acquired\nt=3 FAULT pause\n" {
		t.Errorf("selectLines = %q", got)
	}
	for _, bad := range []string{"run pattern=basic seed=1 grep=a\nstart clients=1\n", "run pattern=basic seed=1\nstart clients=1\n----\n", "run pattern=basic seed=1 grep=(\n----\n"} {
		if _, err := parseBlocks(bad); err == nil {
			t.Errorf("parseBlocks(%q): no error", bad)
		}
	}
}
