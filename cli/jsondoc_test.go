package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/bench"
	"github.com/locksim/locksim/internal/advise"
)

// docFields reads docs/json.md: per section heading (the command), the
// top-level fields of its table, each always present or optional.
func docFields(t *testing.T) map[string]map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "json.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| `([a-z_]+)` \\| (always|optional) \\|")
	sections := map[string]map[string]bool{}
	var cur map[string]bool
	for _, line := range strings.Split(string(data), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			cur = map[string]bool{}
			sections[h] = cur
			continue
		}
		if m := row.FindStringSubmatch(line); m != nil && cur != nil {
			cur[m[1]] = m[2] == "always"
		}
	}
	return sections
}

// TestJSONOutputsMatchTheirDoc runs every command that prints JSON and
// compares the top-level fields of what it printed with docs/json.md:
// every field printed is documented, every field documented as always
// present is printed, and format is the first and names the output.
func TestJSONOutputsMatchTheirDoc(t *testing.T) {
	docs := docFields(t)
	dir := t.TempDir()
	shards := []string{filepath.Join(dir, "s0.json"), filepath.Join(dir, "s1.json")}
	for i, sh := range []string{"0/2", "1/2"} {
		if _, _, err := runCLI(t, "explore", "--pattern", "basic", "--scenario", "gc-pause", "--seeds", "2", "--shard", sh, "--json", "--out", shards[i]); err != nil {
			t.Fatal(err)
		}
	}
	expect := writeFile(t, "e.txt", "basic gc-pause breaks mutex # no fencing\n")
	for _, c := range []struct {
		section, format string
		args            []string
	}{
		{"`locksim run --json`", formatRun, []string{"run", "--pattern", "basic", "--scenario", "gc-pause", "--json"}},
		{"`locksim explore --json` and `locksim merge --json`", formatExplore, []string{"explore", "--pattern", "basic", "--scenario", "gc-pause", "--seeds", "2", "--json"}},
		{"`locksim explore --json` and `locksim merge --json`", formatExplore, append([]string{"merge", "--json"}, shards...)},
		{"`locksim check --json`", formatCheck, []string{"check", "--expect", expect, "--seeds", "2", "--json"}},
		{"`locksim check --json`", formatCheck, []string{"check", "--expect", expect, "--pattern", "basic", "--seeds", "2", "--json"}},
		{"`locksim list --json`", formatList, []string{"list", "--json"}},
		{"`locksim advise --json`", advise.FormatAnswer, append([]string{"advise", "--json", "--evidence", writeEvidence(t)}, strings.Fields(adviseFlags)...)},
		{"`locksim bench --json`", bench.FormatJSON, []string{"bench", "--clients", "1", "--keys", "distinct", "--families", "single",
			"--subjects", "basic", "--duration", "20ms", "--warmup", "5ms", "--reps", "1", "--quiet", "--json"}},
	} {
		doc, ok := docs[c.section]
		if !ok || len(doc) == 0 {
			t.Errorf("docs/json.md has no section %q with fields (sections: %v)", c.section, keys(docs))
			continue
		}
		out, _, err := runCLI(t, c.args...)
		if code := exitCode(err); code != exitOK && code != exitViolation {
			t.Fatalf("locksim %s: %v", strings.Join(c.args, " "), err)
		}
		got, first := topLevel(t, out)
		if first != "format" {
			t.Errorf("locksim %s: first field %q, want format", strings.Join(c.args, " "), first)
		}
		if f, _ := got["format"].(string); f != c.format {
			t.Errorf("locksim %s: format %q, want %q", strings.Join(c.args, " "), f, c.format)
		}
		for name := range got {
			if _, ok := doc[name]; !ok {
				t.Errorf("locksim %s prints field %q that docs/json.md does not document under %s", strings.Join(c.args, " "), name, c.section)
			}
		}
		for name, always := range doc {
			if _, ok := got[name]; always && !ok {
				t.Errorf("docs/json.md says %s always has %q; locksim %s printed none", c.section, name, strings.Join(c.args, " "))
			}
		}
	}
}

// topLevel decodes a JSON object and names its first field.
func topLevel(t *testing.T, out string) (map[string]any, string) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	first, _ := dec.Token()
	s, _ := first.(string)
	return m, s
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
