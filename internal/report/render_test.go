package report

import (
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	d := &Document{Title: "T <1>"}
	d.heading(2, "s", "Section | one")
	d.para(text("a|b *c* "), link("x_y", "viz/a b.html"), code("go test"))
	d.add(Table{Header: []string{"h|1", "h2"}, Rows: [][]TCell{{plain("v|1"), cell(Bad, link("2/3", "viz/p.html"))}, {plain("ok"), cell(Good, text("0/3"))}}},
		List{{text("item <i>")}}, Image{Src: "plots/p.png", Alt: "alt"}, Table{Header: []string{"situation"}, Rows: [][]TCell{{plain("words")}}, Prose: true})
	var md, html strings.Builder
	if err := WriteMarkdown(&md, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, d); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# T &lt;1&gt;\n", "## Section \\| one\n", `a\|b \*c\* [x\_y](viz/a b.html)` + "`go test`",
		`| h\|1 | h2 |`, "| --- | --- |", `| v\|1 | **[2/3](viz/p.html)** |`, "| ok | 0/3 |", "- item &lt;i&gt;", "![alt](plots/p.png)"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}
	for _, want := range []string{"<title>T &lt;1&gt;</title>", `<h2 id="section--one">Section | one</h2>`, `<a href="viz/a b.html">x_y</a><code>go test</code>`,
		`<td class="bad"><a href="viz/p.html">2/3</a></td>`, `<td class="good">0/3</td>`, "<li>item &lt;i&gt;</li>", `<img src="plots/p.png" alt="alt">`,
		"<table class=\"prose\">\n<tr><th>situation</th>"} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("HTML lacks %q:\n%s", want, html.String())
		}
	}
}
