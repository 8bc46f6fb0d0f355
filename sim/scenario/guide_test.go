package scenario

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/locksim/locksim/sim/fault"
)

// guidePath is the scenario guide, docs/scenarios.md.
const guidePath = "../../docs/scenarios.md"

// block is one fenced block of the guide: its tag (the word after the
// opening fence), its text and the line the fence opens on.
type block struct {
	tag, text string
	line      int
}

// fencedBlocks splits Markdown into its fenced blocks, in order.
func fencedBlocks(t *testing.T, md string) []block {
	t.Helper()
	var out []block
	var cur *block
	var body []string
	for i, l := range strings.Split(md, "\n") {
		if !strings.HasPrefix(l, "```") {
			if cur != nil {
				body = append(body, l)
			}
			continue
		}
		if cur == nil {
			cur, body = &block{tag: strings.TrimSpace(strings.TrimPrefix(l, "```")), line: i + 1}, nil
			continue
		}
		cur.text = strings.Join(body, "\n") + "\n"
		out = append(out, *cur)
		cur = nil
	}
	if cur != nil {
		t.Fatalf("%s:%d: a fenced block that never closes", guidePath, cur.line)
	}
	return out
}

func readGuide(t *testing.T) (string, []block) {
	t.Helper()
	data, err := os.ReadFile(guidePath)
	if err != nil {
		t.Fatal(err)
	}
	return string(data), fencedBlocks(t, string(data))
}

// TestScenarioGuide: every block of docs/scenarios.md tagged scenario
// parses, and reads back equal from its canonical text; one that names a
// built-in is that built-in's canonical text (what --show-scenario
// prints); every block tagged scenario-error fails with exactly the error
// the error block after it shows.
func TestScenarioGuide(t *testing.T) {
	_, blocks := readGuide(t)
	var parsed, refused int
	for i, b := range blocks {
		switch b.tag {
		case "scenario":
			parsed++
			checkGuideExample(t, b)
		case "scenario-error":
			refused++
			if i+1 == len(blocks) || blocks[i+1].tag != "error" {
				t.Errorf("%s:%d: a scenario-error block without an error block after it", guidePath, b.line)
				continue
			}
			want := strings.TrimSpace(blocks[i+1].text)
			if _, err := ParseString(b.text); err == nil || err.Error() != want {
				t.Errorf("%s:%d: ParseString = %v,\nthe guide shows %s", guidePath, b.line, err, want)
			}
		}
	}
	if parsed < 10 || refused < 4 {
		t.Errorf("the guide has %d scenario and %d scenario-error blocks; want its examples tagged (at least 10 and 4)", parsed, refused)
	}
}

func checkGuideExample(t *testing.T, b block) {
	t.Helper()
	s, err := ParseString(b.text)
	if err != nil {
		t.Errorf("%s:%d: %v\n%s", guidePath, b.line, err, b.text)
		return
	}
	back, err := ParseString(Format(s))
	if err != nil || Format(back) != Format(s) {
		t.Errorf("%s:%d: its canonical text does not read back: %v\n%s", guidePath, b.line, err, Format(s))
	}
	for _, bi := range Builtins() {
		if bi.Name != s.Name {
			continue
		}
		want, err := Lookup(bi.Name, s.Nodes)
		if err != nil {
			t.Fatal(err)
		}
		if got := Format(want); got != b.text {
			t.Errorf("%s:%d: the built-in %s is, as --show-scenario prints it:\n%s\nthe guide shows:\n%s", guidePath, b.line, bi.Name, got, b.text)
		}
	}
}

// directiveNames are the directives parser.directive dispatches on, read
// from parse.go's switch, so that a new case is seen here.
func directiveNames(t *testing.T) []string {
	t.Helper()
	f, err := goparser.ParseFile(token.NewFileSet(), "parse.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	ast.Inspect(f, func(n ast.Node) bool {
		fd, ok := n.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "directive" {
			return true
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if cc, ok := n.(*ast.CaseClause); ok {
				for _, e := range cc.List {
					if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						names = append(names, s)
					}
				}
			}
			return true
		})
		return false
	})
	if len(names) < 7 {
		t.Fatalf("read %d directives from parse.go's directive switch (%v); has it moved?", len(names), names)
	}
	return names
}

// exampleLines are the lines of the guide's scenario blocks, split into
// their words, comments and blank lines left out.
func exampleLines(blocks []block) [][]string {
	var out [][]string
	for _, b := range blocks {
		if b.tag != "scenario" {
			continue
		}
		for _, l := range strings.Split(b.text, "\n") {
			l, _, _ = strings.Cut(l, "#")
			if w := strings.Fields(l); len(w) > 0 {
				out = append(out, w)
			}
		}
	}
	return out
}

// usesField reports whether a line of directive dir among lines sets
// field (field=…).
func usesField(lines [][]string, dir, field string) bool {
	for _, w := range lines {
		if w[0] != dir {
			continue
		}
		for _, a := range w[1:] {
			if strings.HasPrefix(a, field+"=") {
				return true
			}
		}
	}
	return false
}

// TestScenarioGuideComplete: the guide documents everything the parser
// knows: every directive (a heading and an example line), every field of
// every directive (in code and set in an example), every fault kind with
// each of its fields in an example, every trigger and every point.
func TestScenarioGuideComplete(t *testing.T) {
	md, blocks := readGuide(t)
	lines := exampleLines(blocks)
	documented := func(what, name string) {
		name = strings.TrimSuffix(name, "=")
		if !strings.Contains(md, "`"+name+"`") && !strings.Contains(md, "`"+name+"=") {
			t.Errorf("%s: %s %s is not in the guide (as `%s` or `%s=…`)", guidePath, what, name, name, name)
		}
	}
	p := &parser{s: Default()}
	fields := map[string]map[string]setter{"start": p.startFields(), "workload": p.workloadFields(),
		"net": p.netFields(), "pattern": p.patternFields(), "replicas": p.replicaFields()}
	for _, dir := range directiveNames(t) {
		if !strings.Contains(md, "\n### "+dir) && !strings.Contains(md, ", "+dir+"\n") {
			t.Errorf("%s: directive %s has no heading (### %s)", guidePath, dir, dir)
		}
		if !slices.ContainsFunc(lines, func(w []string) bool { return w[0] == dir }) {
			t.Errorf("%s: directive %s is in no example", guidePath, dir)
		}
		for f := range fields[dir] {
			documented(dir+" field", f)
			if !usesField(lines, dir, f) {
				t.Errorf("%s: %s field %s is set in no example", guidePath, dir, f)
			}
		}
	}
	for _, k := range fault.Kinds {
		kind := string(k.Kind)
		documented("fault", kind)
		for _, f := range faultFields[k.Kind] {
			if !usesField(lines, kind, f) {
				t.Errorf("%s: no example sets %s's field %s", guidePath, kind, f)
			}
		}
	}
	for _, trig := range []string{"at", "on", "n", "after", "every"} {
		documented("trigger", trig+"=")
		if !slices.ContainsFunc(lines, func(w []string) bool { return isFault(w[0]) && usesField(lines, w[0], trig) }) {
			t.Errorf("%s: trigger %s= is in no example", guidePath, trig)
		}
	}
	for _, pt := range fault.Points {
		documented("point", string(pt))
		if !slices.ContainsFunc(lines, func(w []string) bool { return usesPoint(w, string(pt)) }) {
			t.Errorf("%s: point %s is in no example's on=", guidePath, pt)
		}
	}
}

// usesPoint reports whether a fault line triggers on point (on=point or
// on=cN:point).
func usesPoint(words []string, point string) bool {
	if !isFault(words[0]) {
		return false
	}
	for _, a := range words[1:] {
		on, ok := strings.CutPrefix(a, "on=")
		if !ok {
			continue
		}
		if _, p, named := strings.Cut(on, ":"); named {
			on = p
		}
		if on == point {
			return true
		}
	}
	return false
}
