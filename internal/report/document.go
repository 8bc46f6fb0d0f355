package report

import "fmt"

// A Document is the report before it has a format: headings, paragraphs,
// lists, tables and images, rendered alike to Markdown and to HTML.
type Document struct {
	Title  string
	Blocks []Block
}

// Block is one element of a Document: Heading, Para, List, Table, Image.
type Block interface{ block() }

// Heading starts a section; ID is its anchor.
type Heading struct {
	Level int
	Text  string
	ID    string
}

// Para is a paragraph of spans.
type Para []Span

// List is a bulleted list; each item is a run of spans.
type List [][]Span

// Table has a header row and rows of cells. A Prose table holds
// sentences rather than figures: HTML aligns it left.
type Table struct {
	Header []string
	Rows   [][]TCell
	Prose  bool
}

// Image shows a plot; Src is relative to the report.
type Image struct {
	Src, Alt string
}

// Span is a piece of text, optionally a link, bold or code.
type Span struct {
	Text string
	Link string
	Bold bool
	Code bool
}

// Tone colours a table cell in HTML; Markdown shows Bad cells in bold.
type Tone int

// The tones of a cell.
const (
	Plain Tone = iota
	Good       // nothing went wrong
	Bad        // a claim was violated
	Warn       // something worth a look that breaks no claim
	Stale      // made by other code or inputs than the report's: greyed, never a verdict
)

// TCell is one table cell.
type TCell struct {
	Spans []Span
	Tone  Tone
}

func (Heading) block() {}
func (Para) block()    {}
func (List) block()    {}
func (Table) block()   {}
func (Image) block()   {}

// Helpers for building documents.

func text(format string, a ...any) Span { return Span{Text: fmt.Sprintf(format, a...)} }
func bold(format string, a ...any) Span { return Span{Text: fmt.Sprintf(format, a...), Bold: true} }
func code(s string) Span                { return Span{Text: s, Code: true} }
func link(s, href string) Span          { return Span{Text: s, Link: href} }

func cell(tone Tone, spans ...Span) TCell { return TCell{Spans: spans, Tone: tone} }
func plain(format string, a ...any) TCell { return TCell{Spans: []Span{text(format, a...)}} }

func (d *Document) add(b ...Block) { d.Blocks = append(d.Blocks, b...) }

func (d *Document) heading(level int, id, title string) {
	d.add(Heading{Level: level, Text: title, ID: id})
}

func (d *Document) para(spans ...Span) { d.add(Para(spans)) }
