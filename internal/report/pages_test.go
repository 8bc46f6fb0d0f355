package report

import (
	"slices"
	"testing"
)

// TestPagesSplitBySection: every block of the report lands on exactly one
// page, each section on the page topics names for it (the decision table
// and the advice on the front page), the front page lists the topic
// pages, and each topic page links back.
func TestPagesSplitBySection(t *testing.T) {
	m := sharedTiny(t)
	pm := tinyProduction(t, 2, 0, "gc-storm")
	d := Build(m, nil, Options{Production: pm})
	pages := Pages(d)
	if pages[0].Name != "" {
		t.Fatalf("the first page is %q, want the front page", pages[0].Name)
	}
	sections := map[string]string{}
	blocks := 0
	for _, p := range pages {
		for _, b := range p.Doc.Blocks {
			if h, ok := b.(Heading); ok && h.Level == 2 {
				sections[h.ID] = p.Name
			}
		}
		blocks += len(p.Doc.Blocks)
	}
	// Each topic page adds its back link, the front page its list and heading.
	if want := len(d.Blocks) + (len(pages) - 1) + 2; blocks != want {
		t.Errorf("%d blocks over the pages, want %d: the report's %d, a back link per topic page and the front page's list", blocks, want, len(d.Blocks))
	}
	for id, want := range map[string]string{"decide": "", "advice": "", "articles": "", "safety": "claims", "promptness": "claims",
		"liveness": "claims", "broken": "claims", "production": "production", "counterexamples": "counterexamples", "method": "method", "glossary": "method"} {
		if got, ok := sections[id]; !ok || got != want {
			t.Errorf("section %s is on page %q (present %v), want %q", id, got, ok, want)
		}
	}
	var listed []string
	for _, item := range pages[0].Doc.Blocks[len(pages[0].Doc.Blocks)-1].(List) {
		listed = append(listed, item[0].Link)
	}
	for _, p := range pages[1:] {
		if !slices.Contains(listed, "page:"+p.Name) {
			t.Errorf("the front page does not list %s (it lists %q)", p.Name, listed)
		}
		if para, ok := p.Doc.Blocks[0].(Para); !ok || para[1].Link != "page:" {
			t.Errorf("topic page %s does not open with a link back to the front page", p.Name)
		}
	}
}
