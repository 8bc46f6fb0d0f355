package report

import (
	"strconv"
	"strings"
	"unicode"
)

// The report's in-page links name a heading by its ID ("#production-
// gc-storm"), but GitHub anchors a Markdown heading by a slug of its text
// ("#gc-storm"), and a link to anything else is dead there. So both
// renderers write every heading's anchor as GitHub's slug of its text and
// rewrite every "#ID" link to that slug: one href works on GitHub, in
// report.html and from the counterexample pages.

// Slug is GitHub's anchor for a heading of text: lower-cased, each space
// a '-', every character but a letter, a digit, a mark, '-' and '_'
// dropped. A second heading of the same slug gets "-1", a third "-2", ...
// (Slugger).
func Slug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Slugger numbers repeated slugs as GitHub does, in document order.
type Slugger map[string]int

// Next is the anchor of the next heading of text.
func (s Slugger) Next(text string) string {
	base := Slug(text)
	n, seen := s[base]
	s[base] = n + 1
	if !seen {
		return base
	}
	return base + "-" + strconv.Itoa(n)
}

// anchored returns d with each heading's ID replaced by its GitHub
// anchor (the title first, as GitHub counts it) and each "#ID" link by
// the anchor of the heading of that ID; a link to an ID no heading has is
// left as it is (the link test finds it).
func anchored(d *Document) *Document {
	sl := Slugger{}
	sl.Next(d.Title)
	ids := map[string]string{}
	out := &Document{Title: d.Title}
	for _, blk := range d.Blocks {
		if h, ok := blk.(Heading); ok {
			a := sl.Next(h.Text)
			if _, dup := ids[h.ID]; !dup {
				ids[h.ID] = a
			}
			h.ID = a
			blk = h
		}
		out.Blocks = append(out.Blocks, blk)
	}
	for i, blk := range out.Blocks {
		out.Blocks[i] = relink(blk, ids)
	}
	return out
}

// relink rewrites a block's "#ID" links to anchors, copying what it
// changes.
func relink(blk Block, ids map[string]string) Block {
	return mapLinks(blk, func(href string) string {
		if a, ok := ids[strings.TrimPrefix(href, "#")]; ok && strings.HasPrefix(href, "#") {
			return "#" + a
		}
		return href
	})
}

// mapLinks returns blk with every span's link passed through f, copying
// what it changes.
func mapLinks(blk Block, f func(string) string) Block {
	spans := func(ss []Span) []Span {
		out := append([]Span(nil), ss...)
		for i, s := range out {
			if s.Link != "" {
				out[i].Link = f(s.Link)
			}
		}
		return out
	}
	switch x := blk.(type) {
	case Para:
		return Para(spans(x))
	case List:
		l := make(List, len(x))
		for i, item := range x {
			l[i] = spans(item)
		}
		return l
	case Table:
		t := x
		t.Rows = make([][]TCell, len(x.Rows))
		for i, r := range x.Rows {
			t.Rows[i] = make([]TCell, len(r))
			for j, c := range r {
				t.Rows[i][j] = TCell{Spans: spans(c.Spans), Tone: c.Tone}
			}
		}
		return t
	}
	return blk
}
