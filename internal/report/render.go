package report

import (
	"fmt"
	"html"
	"io"
	"strings"
)

// WriteMarkdown renders d as GitHub-flavoured Markdown.
// Every heading is anchored as GitHub anchors it, and every in-page link
// names that anchor (anchored).
func WriteMarkdown(w io.Writer, d *Document) error {
	d = anchored(d)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", mdEscape(d.Title))
	for _, blk := range d.Blocks {
		b.WriteString("\n")
		switch x := blk.(type) {
		case Heading:
			fmt.Fprintf(&b, "%s %s\n", strings.Repeat("#", x.Level), mdEscape(x.Text))
		case Para:
			b.WriteString(mdSpans(x) + "\n")
		case List:
			for _, item := range x {
				b.WriteString("- " + mdSpans(item) + "\n")
			}
		case Table:
			mdTable(&b, x)
		case Image:
			fmt.Fprintf(&b, "![%s](%s)\n", x.Alt, x.Src)
		case Advisor:
			b.WriteString("In [report.html](report.html) (open it in a browser, from disk; no server) this section is a form: answer the six questions `locksim advise` asks and read its answer, with the evidence. The table below answers the situations teams ask about most.\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdTable(b *strings.Builder, t Table) {
	row := func(cells []string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	var head, rule []string
	for _, h := range t.Header {
		head, rule = append(head, mdEscape(h)), append(rule, "---")
	}
	row(head)
	row(rule)
	for _, r := range t.Rows {
		var cells []string
		for _, c := range r {
			s := mdSpans(c.Spans)
			if c.Tone == Bad && s != "" {
				s = "**" + s + "**"
			}
			if c.Tone == Stale && s != "" {
				s = "_" + s + "_"
			}
			cells = append(cells, s)
		}
		row(cells)
	}
}

func mdSpans(spans []Span) string {
	var b strings.Builder
	for _, s := range spans {
		t := mdEscape(s.Text)
		if s.Code {
			t = "`" + strings.ReplaceAll(s.Text, "`", "'") + "`"
		}
		if s.Bold {
			t = "**" + t + "**"
		}
		if s.Link != "" {
			t = "[" + t + "](" + s.Link + ")"
		}
		b.WriteString(t)
	}
	return b.String()
}

var mdEscaper = strings.NewReplacer(`|`, `\|`, `*`, `\*`, `_`, `\_`, `<`, `&lt;`, `>`, `&gt;`, "`", "\\`", `[`, `\[`, `]`, `\]`)

func mdEscape(s string) string { return mdEscaper.Replace(s) }

// WriteHTML renders d as one self-contained HTML page.
// Its headings carry the anchors the Markdown has on GitHub (anchored), so
// a link works in both.
func WriteHTML(w io.Writer, d *Document) error {
	d = anchored(d)
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n<h1>%s</h1>\n",
		html.EscapeString(d.Title), css, html.EscapeString(d.Title))
	for _, blk := range d.Blocks {
		switch x := blk.(type) {
		case Heading:
			fmt.Fprintf(&b, "<h%d id=\"%s\">%s</h%d>\n", x.Level, html.EscapeString(x.ID), html.EscapeString(x.Text), x.Level)
		case Para:
			b.WriteString("<p>" + htmlSpans(x) + "</p>\n")
		case List:
			b.WriteString("<ul>\n")
			for _, item := range x {
				b.WriteString("<li>" + htmlSpans(item) + "</li>\n")
			}
			b.WriteString("</ul>\n")
		case Table:
			htmlTable(&b, x)
		case Image:
			fmt.Fprintf(&b, "<p><img src=\"%s\" alt=\"%s\"></p>\n", html.EscapeString(x.Src), html.EscapeString(x.Alt))
		case Advisor:
			fmt.Fprintf(&b, "<form id=\"advisor\" onsubmit=\"return false\"><p>The form needs JavaScript; without it, run <code>locksim advise</code>.</p></form>\n<div id=\"advisor-answer\"></div>\n<script type=\"application/json\" id=\"advisor-data\">%s</script>\n<script>\n%s</script>\n", x.Data, advisorJS)
		}
	}
	b.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

const css = `
body { font-family: system-ui, sans-serif; max-width: 80rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; color: #222; }
table { border-collapse: collapse; margin: 1rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: right; }
th { background: #f0f0f0; }
td:first-child, th:first-child { text-align: left; }
table.prose td, table.prose th { text-align: left; vertical-align: top; }
td.good { background: #e3f4e3; }
td.bad { background: #f6c9c9; font-weight: bold; }
td.warn { background: #fff2c2; }
td.stale { background: #eeeeee; color: #888888; }
code { background: #f4f4f4; padding: 0 0.2rem; }
img { max-width: 100%; }
`

func htmlTable(b *strings.Builder, t Table) {
	if t.Prose {
		b.WriteString("<table class=\"prose\">\n<tr>")
	} else {
		b.WriteString("<table>\n<tr>")
	}
	for _, h := range t.Header {
		b.WriteString("<th>" + html.EscapeString(h) + "</th>")
	}
	b.WriteString("</tr>\n")
	for _, r := range t.Rows {
		b.WriteString("<tr>")
		for _, c := range r {
			class := map[Tone]string{Good: ` class="good"`, Bad: ` class="bad"`, Warn: ` class="warn"`, Stale: ` class="stale"`}[c.Tone]
			b.WriteString("<td" + class + ">" + htmlSpans(c.Spans) + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
}

func htmlSpans(spans []Span) string {
	var b strings.Builder
	for _, s := range spans {
		t := html.EscapeString(s.Text)
		if s.Code {
			t = "<code>" + t + "</code>"
		}
		if s.Bold {
			t = "<strong>" + t + "</strong>"
		}
		if s.Link != "" {
			t = `<a href="` + html.EscapeString(s.Link) + `">` + t + "</a>"
		}
		b.WriteString(t)
	}
	return b.String()
}
