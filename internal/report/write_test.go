package report

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readTree returns every file under dir by its slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// site is every page of the report in dir of format ext ("md", "html"),
// joined in PageFiles order: the text a reader can reach from the front
// page.
func site(files map[string][]byte, ext string) string {
	var b strings.Builder
	for _, name := range PageFiles() {
		if strings.HasSuffix(name, "."+ext) {
			b.Write(files[name])
		}
	}
	return b.String()
}

// TestWriteIsDeterministic measures the tiny report twice, on one worker
// and on many, writes each, and compares every file byte for byte.
func TestWriteIsDeterministic(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir()}
	for i, workers := range []int{1, 8} {
		m := tinyMeasure(t, 2, workers)
		pm := tinyProduction(t, 2, workers, "split-brain-wait", "failover-mid-grant", "gc-storm")
		if err := Write(dirs[i], m, nil, Options{Commit: "abc1234", Command: "locksim report --seeds 2", Production: pm}); err != nil {
			t.Fatal(err)
		}
	}
	a, b := readTree(t, dirs[0]), readTree(t, dirs[1])
	if md := site(a, "md"); !strings.Contains(md, "### gc-storm\n") || !strings.Contains(md, "### Violations per simulated hour and per million acquisitions\n") {
		t.Error("the report lacks the production section or the rates beside the safety grid")
	}
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two runs of the same report", name)
		}
	}
}

// TestWriteStructure checks the files, the sections and that every local
// link of the Markdown and the HTML names a file that exists.
func TestWriteStructure(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, VizDir, "old--run--seed-9.html")
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := sharedTiny(t)
	if err := Write(dir, m, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	files := readTree(t, dir)
	if _, ok := files["viz/old--run--seed-9.html"]; ok {
		t.Error("an earlier report's visualisation was left in viz/")
	}
	for _, name := range []string{FileMarkdown, FileHTML, "plots/violations.png", "plots/violations.svg", "plots/violations-broken.svg", "plots/lost-updates-fencing.png"} {
		if len(files[name]) == 0 {
			t.Errorf("%s is missing or empty", name)
		}
	}
	md, html := site(files, "md"), site(files, "html")
	for _, h := range []string{"## Which pattern should I use", "## Safety: violation rate", "## Lost updates, with and without fencing",
		"## Liveness: acquisitions and waits", "## Broken variants: is each one caught?", "## Counterexamples", "## Benchmark: throughput and latency", "## Method"} {
		if !strings.Contains(md, h+"\n") {
			t.Errorf("the Markdown lacks the section %q", h)
		}
		if !strings.Contains(html, ">"+strings.TrimPrefix(h, "## ")+"</h2>") {
			t.Errorf("the HTML lacks the section %q", h)
		}
	}
	checkLinks(t, dir, md, regexp.MustCompile(`\]\(([^)#]+)\)`))
	checkLinks(t, dir, html, regexp.MustCompile(`(?:href|src)="([^"#]+)"`))
	vizzes := 0
	for _, row := range m.Cells {
		for _, c := range row {
			if c.Violating == 0 {
				continue
			}
			vizzes++
			if c.Viz == "" || !strings.Contains(md, "]("+c.Viz+")") {
				t.Errorf("%s under %s: %d violating seeds, but no linked visualisation (%q)", c.Pattern, c.Scenario, c.Violating, c.Viz)
			}
		}
	}
	if vizzes == 0 {
		t.Error("no cell violated anything: the tiny report should show basic breaking under gc-pause")
	}
}

func checkLinks(t *testing.T, dir, doc string, re *regexp.Regexp) {
	t.Helper()
	links := re.FindAllStringSubmatch(doc, -1)
	if len(links) == 0 {
		t.Errorf("no local link found by %v", re)
	}
	for _, m := range links {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(m[1]))); err != nil {
			t.Errorf("link %q: %v", m[1], err)
		}
	}
}

// TestVizHasTheFaults checks a counterexample: porcupine's page, with the
// pause of gc-pause on the timeline and the checker's verdict.
func TestVizHasTheFaults(t *testing.T) {
	dir := t.TempDir()
	m := sharedTiny(t)
	if err := Write(dir, m, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	c := m.Cell("basic", "gc-pause")
	if c.Viz == "" {
		t.Fatalf("basic under gc-pause: no visualisation (%d violating seeds)", c.Violating)
	}
	data, err := os.ReadFile(filepath.Join(dir, c.Viz))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "<html") || !strings.Contains(string(data), "pause") {
		t.Errorf("%s: not porcupine's page with the pause annotated", c.Viz)
	}
	if !strings.HasPrefix(c.VizVerdict, "illegal") {
		t.Errorf("basic under gc-pause, seed %d: checker verdict %q, want illegal (a lost update)", c.FirstSeed, c.VizVerdict)
	}
}
