package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/locksim/locksim/internal/advise"
)

// The advisor form opens report.html: the situation's questions as
// selects, and the answer locksim advise gives to what is picked. The
// page computes nothing: the report embeds the engine's answer to every
// combination (Advisor), and the script (advisor.js) looks the picked one
// up, so the form and the command cannot disagree. Plain HTML and
// JavaScript, no server: it works from file://.

//go:embed advisor.js
var advisorJS string

// FormatAdvisorData names the format of the data the form embeds.
const FormatAdvisorData = "locksim-advisor-form/1"

// Advisor is the form's block: HTML only (the Markdown points to
// report.html for it). Data is the embedded JSON (advisorData).
type Advisor struct {
	Data []byte
}

func (Advisor) block() {}

// advisorData is what the page embeds. An answer is stored once per
// distinct content with its situation left out, its evidence as indices
// into Judged; Index maps a combination (the dimensions' values joined by
// spaces, in Dimensions' order) to its answer and its situation, which
// the script puts back: the answer it shows is then advise's, field for
// field.
type advisorData struct {
	Format     string                  `json:"format"`
	Dimensions []advisorDimension      `json:"dimensions"`
	Answers    []json.RawMessage       `json:"answers"`
	Judged     []json.RawMessage       `json:"judged"`
	Index      map[string]advisorEntry `json:"index"`
	Others     string                  `json:"others"`
}

type advisorDimension struct {
	Flag     string   `json:"flag"`
	Question string   `json:"question"`
	Values   []string `json:"values"`
}

type advisorEntry struct {
	Answer    int              `json:"answer"`
	Situation advise.Situation `json:"situation"`
}

// advisorCounts are the independent-node and slot counts the form
// offers: those the evidence measured (a Redlock's nodes, a semaphore's
// permits); advise answers other counts the same way and says so.
func advisorCounts(e *advise.Evidence) (nodes, slots []int) {
	for _, p := range e.Patterns {
		if p.Broken {
			continue
		}
		if p.Nodes > 1 && !slices.Contains(nodes, p.Nodes) {
			nodes = append(nodes, p.Nodes)
		}
		if p.MaxHolders > 1 && !slices.Contains(slots, p.MaxHolders) {
			slots = append(slots, p.MaxHolders)
		}
	}
	if len(nodes) == 0 {
		nodes = []int{5}
	}
	if len(slots) == 0 {
		slots = []int{2}
	}
	slices.Sort(nodes)
	slices.Sort(slots)
	return nodes, slots
}

// AdvisorForm answers every combination from e and packs the answers
// for the page.
func AdvisorForm(e *advise.Evidence) (Advisor, error) {
	nodes, slots := advisorCounts(e)
	data := advisorData{Format: FormatAdvisorData, Index: map[string]advisorEntry{}, Answers: []json.RawMessage{}, Judged: []json.RawMessage{},
		Others: fmt.Sprintf("The form offers the counts the evidence measured (independent nodes %v, slots %v); locksim advise answers any other count.", nodes, slots)}
	sits := advise.All(nodes, slots)
	for _, d := range advise.Dimensions() {
		ad := advisorDimension{Flag: d.Flag, Question: d.Question}
		for _, s := range sits {
			if v := s.Get(d.Flag); !slices.Contains(ad.Values, v) {
				ad.Values = append(ad.Values, v)
			}
		}
		data.Dimensions = append(data.Dimensions, ad)
	}
	answers, judged := map[string]int{}, map[string]int{}
	for _, s := range sits {
		a, err := advise.Advise(s, e)
		if err != nil {
			return Advisor{}, err
		}
		packed, err := packAnswer(a, judged, &data.Judged)
		if err != nil {
			return Advisor{}, err
		}
		i, ok := answers[string(packed)]
		if !ok {
			i = len(data.Answers)
			answers[string(packed)] = i
			data.Answers = append(data.Answers, packed)
		}
		var key []string
		for _, d := range data.Dimensions {
			key = append(key, s.Get(d.Flag))
		}
		data.Index[joinKey(key)] = advisorEntry{Answer: i, Situation: s}
	}
	b, err := json.Marshal(data) // escapes <, > and &: safe inside a script element
	if err != nil {
		return Advisor{}, err
	}
	return Advisor{Data: b}, nil
}

func joinKey(vs []string) string {
	var b bytes.Buffer
	for i, v := range vs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(v)
	}
	return b.String()
}

// packAnswer is a's JSON without its situation, its evidence replaced by
// indices into judged (interned in order of first use).
func packAnswer(a advise.Answer, index map[string]int, judged *[]json.RawMessage) (json.RawMessage, error) {
	var ids []int
	if a.Evidence != nil {
		ids = []int{}
	}
	for _, j := range a.Evidence {
		b, err := json.Marshal(j)
		if err != nil {
			return nil, err
		}
		i, ok := index[string(b)]
		if !ok {
			i = len(*judged)
			index[string(b)] = i
			*judged = append(*judged, b)
		}
		ids = append(ids, i)
	}
	var m map[string]json.RawMessage
	b, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	delete(m, "situation")
	if m["evidence"], err = json.Marshal(ids); err != nil {
		return nil, err
	}
	return json.Marshal(m) // a map: its keys sorted, the same bytes every time
}

// advisorSection opens the report with the form over e.
func advisorSection(d *Document, e *advise.Evidence) {
	form, err := AdvisorForm(e)
	if err != nil {
		panic("report: the advisor form: " + err.Error()) // every combination is complete
	}
	d.heading(2, "ask", "Ask the advisor")
	d.add(form)
}
