package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pageData returns the JSON of a page's `const data = …` line.
func pageData(t *testing.T, page []byte) map[string]any {
	t.Helper()
	m := vizDataLine.FindSubmatch(page)
	if m == nil {
		t.Fatal("the page has no data line")
	}
	var d map[string]any
	if err := json.Unmarshal(m[1], &d); err != nil {
		t.Fatalf("the page's data does not parse: %v", err)
	}
	return d
}

// TestVizPagesShareTheScript checks a report's counterexample page: a
// header saying what it shows, porcupine's script referenced from the one
// shared file rather than inlined, and the data of porcupine's own page
// intact but for the section labels.
func TestVizPagesShareTheScript(t *testing.T) {
	dir := t.TempDir()
	m := sharedTiny(t)
	if err := Write(dir, m, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	c := m.Cell("basic", "gc-pause")
	page, err := os.ReadFile(filepath.Join(dir, c.Viz))
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(dir, VizDir, VizScript))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), "function render") {
		t.Errorf("%s lacks porcupine's render function", VizScript)
	}
	p := string(page)
	for _, want := range []string{`<script src="porcupine.js"></script>`, "<title>locksim counterexample: basic under gc-pause, seed ",
		`<a href="../counterexamples.html#counterexamples">`, "basic under gc-pause, seed", "broke mutex", "locksim run --pattern basic --scenario gc-pause --seed ",
		"render(data)", "⚠ c", `"Tag":"c1 faults"`} {
		if !strings.Contains(p, want) {
			t.Errorf("%s lacks %q", c.Viz, want)
		}
	}
	if strings.Contains(p, "function render") || len(page) > len(script) {
		t.Errorf("%s still inlines porcupine's script (%d bytes, script %d)", c.Viz, len(page), len(script))
	}
	style, err := os.ReadFile(filepath.Join(dir, VizDir, VizStyle))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(style), "#legend") || strings.Contains(string(style), "<style") {
		t.Errorf("%s lacks porcupine's style (#legend) or keeps its tag", VizStyle)
	}
	if !strings.Contains(p, `<link rel="stylesheet" href="porcupine.css" />`) || strings.Contains(p, "<style") || strings.Contains(p, "#legend") {
		t.Errorf("%s inlines porcupine's style instead of linking %s", c.Viz, VizStyle)
	}
	if _, err := os.Stat(filepath.Join(dir, FileHTML)); err != nil {
		t.Errorf("the back link's target: %v", err)
	}
	// The same history as a standalone page: the data must match but for
	// the descriptions.
	alone := filepath.Join(t.TempDir(), "alone.html")
	if _, err := VizFile(alone, c.first, DefaultCheckTimeout); err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(alone)
	if err != nil {
		t.Fatal(err)
	}
	got, want := pageData(t, page), pageData(t, orig)
	if gj, wj := stripDescriptions(t, got), stripDescriptions(t, want); gj != wj {
		t.Errorf("the shared page's data differs from porcupine's beyond the labels:\n got %.300s\nwant %.300s", gj, wj)
	}
}

// stripDescriptions blanks every operation's description and the fault
// rows' tags, and returns the data as JSON.
func stripDescriptions(t *testing.T, d map[string]any) string {
	t.Helper()
	for _, p := range d["Partitions"].([]any) {
		for _, op := range p.(map[string]any)["History"].([]any) {
			op.(map[string]any)["Description"] = ""
		}
	}
	for _, a := range d["Annotations"].([]any) {
		if tag := a.(map[string]any)["Tag"].(string); strings.HasSuffix(tag, " faults") {
			a.(map[string]any)["Tag"] = ""
		}
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMarkOverlaps(t *testing.T) {
	ops := []vizOp{
		{ClientId: 1, OriginalStart: "0", OriginalEnd: "700", Description: "section: read 0, wrote 1"},
		{ClientId: 2, OriginalStart: "200", OriginalEnd: "300", Description: "section: read 0, wrote 1"},
		{ClientId: 2, OriginalStart: "800", OriginalEnd: "900", Description: "section: read 1, wrote 2"},
		{ClientId: 1, OriginalStart: "850", OriginalEnd: "870", Description: "section: read 1, wrote 2"},
		{ClientId: 1, OriginalStart: "950", OriginalEnd: "990", Description: "write fence 3"},
	}
	markOverlaps(ops)
	want := []string{"⚠ c1 section: read 0, wrote 1 — overlaps c2", "⚠ c2 section: read 0, wrote 1 — overlaps c1",
		"⚠ c2 section: read 1, wrote 2 — overlaps c1", "⚠ c1 section: read 1, wrote 2 — overlaps c2", "c1 write fence 3"}
	for i, o := range ops {
		if o.Description != want[i] {
			t.Errorf("op %d: %q, want %q", i, o.Description, want[i])
		}
	}
}

// TestCutPageRefusesOtherShapes: a page that is not porcupine's shape is
// refused, not half-rewritten.
func TestCutPageRefusesOtherShapes(t *testing.T) {
	good := "<html><head><title>Porcupine</title></head><body><div></div><script>\nfunction render(d) {}\nconst data = {\"Partitions\":[],\"Annotations\":[]}\nrender(data)\n</script>\n</body>\n</html>\n"
	p, err := cutPage([]byte(good))
	if err != nil {
		t.Fatalf("cutPage(porcupine's shape): %v", err)
	}
	if !strings.Contains(string(p.script), "function render") || string(p.data) != `{"Partitions":[],"Annotations":[]}` {
		t.Errorf("cutPage split it wrong: script %q, data %q", p.script, p.data)
	}
	for name, page := range map[string]string{
		"no data":      strings.Replace(good, "const data = ", "let x = ", 1),
		"no render":    strings.Replace(good, "render(data)\n", "draw(data)\n", 1),
		"no body":      strings.Replace(good, "<body>", "<main>", 1),
		"data outside": strings.Replace(good, "<script>", "<p>const data = {}</p><script>", 1),
	} {
		if _, err := cutPage([]byte(page)); err == nil {
			t.Errorf("cutPage(%s) = nil error, want a refusal", name)
		}
	}
	if _, err := labelSections([]byte(`{"Partitions":[{"History":[{"ClientId":1,"Start":0,"OriginalStart":"0","End":1,"OriginalEnd":"1","Description":"x","Metadata":"m","Extra":1}],"PartialLinearizations":[],"Largest":{}}],"Annotations":[]}`)); err == nil {
		t.Error("labelSections kept quiet about a history field it would drop")
	}
}
