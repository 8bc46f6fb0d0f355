package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/sim"
)

// A report carries a counterexample page for every red cell. Porcupine
// writes each as one self-contained file with its 900-line script inline;
// the report's pages share that script as viz/porcupine.js and its style
// sheet as viz/porcupine.css instead, and each page keeps only its data, a header saying what it shows (pattern,
// scenario, seed, the claims broken, the replay command, a link back to
// the report) and labels on the sections that overlap another client's.

// VizScript is the shared script's file, inside VizDir.
const VizScript = "porcupine.js"

// VizStyle is the shared style sheet's file, inside VizDir.
const VizStyle = "porcupine.css"

// pageInfo is what a counterexample page's header says.
type pageInfo struct {
	Pattern, Scenario string
	Seed              uint64
	Kind              ClaimKind // the kind of claim the page shows broken
	Violated          []string  // the claims of that kind the run broke
	Verdict           string
	Linearizable      bool            // porcupine found the history linearizable
	Late              []sim.Violation // a promptness page's late-signal findings
	Replay            string
	Back              string // the report, relative to the page
}

// splitPage cuts porcupine's page into the script it inlines (everything
// before the data line), the data, and what surrounds them.
type splitPage struct {
	head, beforeScript []byte // up to <body> (its style linked), and from <body> up to <script>
	script             []byte // the shared part of the inline script
	style              []byte // the inline style sheet, shared; nil if the page has none
	data               []byte // the JSON of `const data = …`
}

var (
	scriptOpen  = []byte("<script>")
	scriptClose = []byte("</script>")
	bodyOpen    = []byte("<body>")
	styleOpen   = []byte("<style>")
	styleClose  = []byte("</style>")
	styleLink   = []byte(`<link rel="stylesheet" href="` + VizStyle + `" />`)
	titleTag    = regexp.MustCompile(`<title>[^<]*</title>`)
)

// cutPage splits porcupine's page; it fails if the page is not shaped as
// porcupine writes it (one inline script ending in the data and render).
func cutPage(page []byte) (splitPage, error) {
	var p splitPage
	b, s := bytes.Index(page, bodyOpen), bytes.Index(page, scriptOpen)
	m := vizDataLine.FindSubmatchIndex(page)
	if b < 0 || s < b || m == nil || m[0] < s {
		return p, errors.New("report: porcupine's page is not shaped as expected (body, script, data)")
	}
	tail := page[m[1]:]
	e := bytes.Index(tail, scriptClose)
	if e < 0 || strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(string(tail[:e])), ";")) != "render(data)" {
		return p, errors.New("report: porcupine's script does not end in render(data)")
	}
	if strings.TrimSpace(string(tail[e+len(scriptClose):])) != "</body>\n</html>" && !bytes.Contains(tail[e:], []byte("</html>")) {
		return p, errors.New("report: porcupine's page has something after its script")
	}
	p.head, p.style = linkStyle(page[:b+len(bodyOpen)])
	p.beforeScript = page[b+len(bodyOpen) : s]
	p.script = page[s+len(scriptOpen) : m[0]]
	p.data = page[m[2]:m[3]]
	return p, nil
}

// linkStyle cuts the inline style sheet out of a page's head and links
// the shared file in its place; a head without one is kept as it is.
func linkStyle(head []byte) (linked, style []byte) {
	o := bytes.Index(head, styleOpen)
	c := bytes.Index(head, styleClose)
	if o < 0 || c < o {
		return head, nil
	}
	linked = slices.Concat(head[:o], styleLink, head[c+len(styleClose):])
	return linked, head[o+len(styleOpen) : c]
}

// sharedPage is the page rebuilt around the shared script, with a header
// and the given (relabelled) data.
func sharedPage(p splitPage, data []byte, info pageInfo) []byte {
	var w bytes.Buffer
	title := fmt.Sprintf("<title>locksim counterexample: %s under %s, seed %d</title>", info.Pattern, info.Scenario, info.Seed)
	w.Write(titleTag.ReplaceAll(p.head, []byte(title)))
	w.WriteString(pageHeader(info))
	w.Write(p.beforeScript)
	fmt.Fprintf(&w, "<script src=\"%s\"></script>\n    <script>\n      const data = ", VizScript)
	w.Write(data)
	w.WriteString("\n      render(data)\n    </script>\n  </body>\n</html>\n")
	return w.Bytes()
}

// pageHeader is the block that says what the page shows: the claim the
// run broke, of one kind, and how the page draws it. It says the history
// is not linearizable only when porcupine said so.
func pageHeader(info pageInfo) string {
	e := html.EscapeString
	claims := strings.Join(info.Violated, ", ")
	return fmt.Sprintf(`
    <header style="font: 14px/1.4 sans-serif; margin: 36px 0 12px; padding: 8px 12px; border-left: 4px solid %s; background: #fbf3f4">
      <p style="margin: 0 0 4px"><a href="%s">← the report</a></p>
      <h1 style="font-size: 18px; margin: 0 0 4px">%s under %s, seed %d: broke %s (%s)</h1>
      <p style="margin: 0">%s Replay: <code>%s</code></p>
      <p style="margin: 4px 0 0">%s Faults have rows of their own, named after the client or node they hit.</p>%s
    </header>
`, kindColour(info.Kind), e(info.Back), e(info.Pattern), e(info.Scenario), info.Seed, e(claims), info.Kind, e(checkerText(info)), e(info.Replay), e(drawsText(info.Kind)), lateList(info.Late))
}

// kindColour is the header's mark: red for safety, Okabe–Ito's reddish
// purple for promptness (the colour of its spans), blue for liveness.
func kindColour(k ClaimKind) string {
	switch k {
	case Safety:
		return "#b00020"
	case Promptness:
		return lateColour
	}
	return "#0072b2"
}

// lateColour is the background of a late loss signal's span.
const lateColour = "#cc79a7"

// checkerText is porcupine's verdict as the page states it.
func checkerText(info pageInfo) string {
	if info.Linearizable {
		return "Checker: " + info.Verdict + ": the history is linearizable (no section's read or write is out of order)."
	}
	s := "Checker: " + info.Verdict + ": porcupine found the history not linearizable; the red annotation marks the operations it cannot order."
	if info.Kind != Safety {
		s += " That is the checker's finding on the data, not the claim this page shows broken: the run broke no safety claim of the pattern."
	}
	return s
}

// drawsText says how the page draws the kind of claim it shows.
func drawsText(k ClaimKind) string {
	sections := "Each box is one critical section of one client (read the counter, write it + 1), in true time. A section marked ⚠ overlaps another client's section: two clients relied on the lock at once."
	switch k {
	case Promptness:
		return sections + " The claim broken is loss-signal: each span marked \"" + LateSpanKind + "\" runs from the instant the server let the holder's lock go to the instant the holder learnt of it, or its wait ended, past the pattern's bound."
	case Liveness:
		return sections + " The claim broken is progress: the lock was free and no waiting client took it within the bound."
	}
	return sections
}

// lateList lists the late-signal findings, as the simulator words them.
func lateList(late []sim.Violation) string {
	if len(late) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n      <ul style=\"margin: 4px 0 0\">")
	for _, v := range late {
		fmt.Fprintf(&b, "<li>%s</li>", html.EscapeString(v.Detail))
	}
	b.WriteString("</ul>")
	return b.String()
}

// vizOp mirrors one operation of porcupine's history data, in its order.
type vizOp struct {
	ClientId      int
	Start         int64
	OriginalStart string
	End           int64
	OriginalEnd   string
	Description   string
	Metadata      string
}

// labelSections rewrites data's operation descriptions: each starts with
// its client (c1, c2…), and a section that overlaps in true time another
// client's section is marked ⚠ with the other client. Everything else of
// the data is kept as it was.
func labelSections(data []byte) ([]byte, error) {
	var d struct {
		Partitions  []map[string]json.RawMessage
		Annotations json.RawMessage
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, err
	}
	ann, err := faultRows(d.Annotations)
	if err != nil {
		return nil, err
	}
	d.Annotations = ann
	for _, part := range d.Partitions {
		var ops []vizOp
		var raw []map[string]json.RawMessage
		if err := errors.Join(json.Unmarshal(part["History"], &ops), json.Unmarshal(part["History"], &raw)); err != nil {
			return nil, fmt.Errorf("report: porcupine's history: %w", err)
		}
		for _, r := range raw {
			if len(r) != 7 { // the fields of vizOp: anything else would be lost
				return nil, fmt.Errorf("report: porcupine's history has %d fields per operation, want the 7 of vizOp", len(r))
			}
		}
		markOverlaps(ops)
		h, err := json.Marshal(ops)
		if err != nil {
			return nil, err
		}
		part["History"] = h
	}
	return marshalViz(d.Partitions, d.Annotations)
}

// marshalViz writes the data back with porcupine's field order.
func marshalViz(parts []map[string]json.RawMessage, ann json.RawMessage) ([]byte, error) {
	var w bytes.Buffer
	w.WriteString(`{"Partitions":[`)
	for i, p := range parts {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString(`{"History":`)
		w.Write(p["History"])
		w.WriteString(`,"PartialLinearizations":`)
		w.Write(p["PartialLinearizations"])
		w.WriteString(`,"Largest":`)
		w.Write(p["Largest"])
		w.WriteByte('}')
	}
	w.WriteString(`],"Annotations":`)
	w.Write(ann)
	w.WriteByte('}')
	return w.Bytes(), nil
}

// markOverlaps labels each operation with its client and marks the
// sections that overlap another client's in true time.
func markOverlaps(ops []vizOp) {
	span := func(o vizOp) (int64, int64) {
		s, _ := strconv.ParseInt(o.OriginalStart, 10, 64)
		e, err := strconv.ParseInt(o.OriginalEnd, 10, 64)
		if err != nil { // an operation that never returned
			e = 1<<63 - 1
		}
		return s, e
	}
	labels := make([]string, len(ops))
	for i, o := range ops {
		var with []string
		s1, e1 := span(o)
		for j, p := range ops {
			s2, e2 := span(p)
			if j != i && p.ClientId != o.ClientId && isSection(o) && isSection(p) && s1 < e2 && s2 < e1 {
				if c := fmt.Sprintf("c%d", p.ClientId); !slices.Contains(with, c) {
					with = append(with, c)
				}
			}
		}
		labels[i] = fmt.Sprintf("c%d %s", o.ClientId, o.Description)
		if len(with) > 0 {
			labels[i] = fmt.Sprintf("⚠ c%d %s — overlaps %s", o.ClientId, o.Description, strings.Join(with, ", "))
		}
	}
	for i := range ops {
		ops[i].Description = labels[i]
	}
}

// faultRows moves the annotations drawn on a client's row (its pause,
// its clock jump) to a row of their own, tagged "c1 faults", so that they
// no longer cover the client's sections. Every other field is kept.
func faultRows(ann json.RawMessage) (json.RawMessage, error) {
	var as []map[string]json.RawMessage
	if err := json.Unmarshal(ann, &as); err != nil {
		return nil, fmt.Errorf("report: porcupine's annotations: %w", err)
	}
	for _, a := range as {
		var tag string
		var client int
		if err := errors.Join(json.Unmarshal(a["Tag"], &tag), json.Unmarshal(a["ClientId"], &client)); err != nil {
			return nil, fmt.Errorf("report: porcupine's annotations: %w", err)
		}
		if tag == "" {
			t, _ := json.Marshal(fmt.Sprintf("c%d faults", client))
			a["Tag"] = t
		}
		var desc string
		if json.Unmarshal(a["Description"], &desc) == nil && desc == LateSpanKind {
			a["TextColor"], a["BackgroundColor"] = json.RawMessage(`"#000000"`), json.RawMessage(`"`+lateColour+`"`)
		}
	}
	if len(as) == 0 {
		return ann, nil
	}
	return json.Marshal(as)
}

func isSection(o vizOp) bool { return strings.HasPrefix(o.Description, "section") }
