package report

import (
	"strings"
)

// The report is a front page (README.md, report.html) that a lead reads
// first, the decision table, the advice and the article's comparison,
// and topic pages (NAME.md, NAME.html) for the long material: every
// section of Build goes to the page its level-2 heading's ID names in
// topics. Links cross pages by heading ID as they link within one: a
// "#ID" link resolves to the page that holds that heading, and
// "page:NAME" to a page itself (resolvePages).

// Page is one page of the report: Name "" is the front page.
type Page struct {
	Name string
	Doc  *Document
}

// topic is a topic page: its name, title, and the sections (level-2
// heading IDs) it holds, in Build's order.
type topic struct {
	name, title, about string
	sections           []string
}

var topics = []topic{
	{"claims", "locksim report: every pattern under every scenario, claim by claim",
		"safety, promptness, the safety curves, lost updates, liveness and the broken variants", []string{"safety", "promptness", "curves", "lost-updates", "liveness", "broken"}},
	{"real", "locksim report: the simulator against real redis-server", "the agreement table of real mode", []string{"agreement"}},
	{"production", "locksim report: production faults", "every pattern under fault schedules, split brain, WAIT, fsync and replica faults", []string{"production"}},
	{"counterexamples", "locksim report: counterexamples", "every cell with a violation, its page and its replay command", []string{"counterexamples"}},
	{"benchmark", "locksim report: throughput and latency", "the benchmark against redis-server", []string{"benchmark"}},
	{"method", "locksim report: method and glossary", "how the runs are made, the scenarios, the patterns, and the terms", []string{"method", "glossary"}},
}

// PageFiles are the files of every page the report may write at its top
// level, the front page's first.
func PageFiles() []string {
	out := []string{FileMarkdown, FileHTML}
	for _, t := range topics {
		out = append(out, t.name+".md", t.name+".html")
	}
	return out
}

// pageFile is a page's file in the format ext ("md" or "html").
func pageFile(name, ext string) string {
	switch {
	case name == "" && ext == "md":
		return FileMarkdown
	case name == "":
		return FileHTML
	}
	return name + "." + ext
}

// sectionPage is the page that holds the section of level-2 heading id.
func sectionPage(id string) string {
	for _, t := range topics {
		for _, s := range t.sections {
			if s == id {
				return t.name
			}
		}
	}
	return ""
}

// Pages splits d into the front page and the topic pages that have a
// section, in topics order; the front page ends with a list of them, and
// each topic page starts with a link back.
func Pages(d *Document) []Page {
	front := &Document{Title: d.Title}
	docs := map[string]*Document{}
	cur := front
	for _, blk := range d.Blocks {
		if h, ok := blk.(Heading); ok && h.Level == 2 {
			cur = front
			if name := sectionPage(h.ID); name != "" {
				if docs[name] == nil {
					docs[name] = newTopicDoc(name)
				}
				cur = docs[name]
			}
		}
		cur.add(blk)
	}
	out := []Page{{Doc: front}}
	var l List
	for _, t := range topics {
		if docs[t.name] != nil {
			out = append(out, Page{Name: t.name, Doc: docs[t.name]})
			label := strings.TrimPrefix(t.title, "locksim report: ")
			l = append(l, []Span{link(strings.ToUpper(label[:1])+label[1:], "page:"+t.name), text(": %s.", t.about)})
		}
	}
	if len(l) > 0 {
		front.heading(2, "pages", "The evidence, page by page")
		front.add(l)
	}
	return out
}

func newTopicDoc(name string) *Document {
	for _, t := range topics {
		if t.name == name {
			d := &Document{Title: t.title}
			d.para(text("Part of the "), link("locksim report", "page:"), text(": %s.", t.about))
			return d
		}
	}
	return &Document{Title: name}
}

// resolvePages returns the pages with every heading anchored by GitHub's
// slug of its text, "#ID" links pointing at the page and anchor of the
// heading of that ID, and "page:NAME" links at the page, for files of
// format ext.
func resolvePages(pages []Page, ext string) []*Document {
	type target struct{ page, anchor string }
	where := map[string]target{}
	anchoredDocs := make([]*Document, len(pages))
	for i, p := range pages {
		sl := Slugger{}
		sl.Next(p.Doc.Title)
		out := &Document{Title: p.Doc.Title}
		for _, blk := range p.Doc.Blocks {
			if h, ok := blk.(Heading); ok {
				a := sl.Next(h.Text)
				if _, dup := where[h.ID]; !dup {
					where[h.ID] = target{p.Name, a}
				}
				h.ID = a
				blk = h
			}
			out.Blocks = append(out.Blocks, blk)
		}
		anchoredDocs[i] = out
	}
	for i, d := range anchoredDocs {
		here := pages[i].Name
		rewrite := func(href string) string {
			switch {
			case strings.HasPrefix(href, "page:"):
				return pageFile(strings.TrimPrefix(href, "page:"), ext)
			case strings.HasPrefix(href, "#"):
				t, ok := where[href[1:]]
				if !ok {
					return href
				}
				if t.page == here {
					return "#" + t.anchor
				}
				return pageFile(t.page, ext) + "#" + t.anchor
			}
			return href
		}
		for k, blk := range d.Blocks {
			d.Blocks[k] = mapLinks(blk, rewrite)
		}
	}
	return anchoredDocs
}
