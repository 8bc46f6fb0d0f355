package report

import (
	"cmp"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
)

// Porcupine's page is not deterministic: the partial linearizations of an
// illegal partition come out of a map, in random order, and a sort by
// length leaves ties as they came. canonicalViz puts them in one order
// (longest first, then by their operations) and recomputes the index of
// the largest one per operation as porcupine does, so that the same
// history always gives the same page.

// vizData mirrors the JSON porcupine embeds in its page (the fields of its
// visualizationData, in order); what is not reordered stays raw.
type vizData struct {
	Partitions  []vizPartition
	Annotations json.RawMessage
}

type vizPartition struct {
	History               json.RawMessage
	PartialLinearizations [][]vizStep
	Largest               map[int]int
}

type vizStep struct {
	Index            int
	StateDescription string
}

var vizDataLine = regexp.MustCompile(`const data = (\{.*\})`)

// canonicalViz returns page with its data in canonical order.
func canonicalViz(page []byte) ([]byte, error) {
	m := vizDataLine.FindSubmatchIndex(page)
	if m == nil {
		return nil, errors.New("report: porcupine's page has no data line")
	}
	var d vizData
	if err := json.Unmarshal(page[m[2]:m[3]], &d); err != nil {
		return nil, err
	}
	for i := range d.Partitions {
		d.Partitions[i].canonical()
	}
	data, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	return slices.Concat(page[:m[2]], data, page[m[3]:]), nil
}

func (p *vizPartition) canonical() {
	slices.SortStableFunc(p.PartialLinearizations, func(a, b []vizStep) int {
		if c := cmp.Compare(len(b), len(a)); c != 0 {
			return c
		}
		for i := range a {
			if c := cmp.Compare(a[i].Index, b[i].Index); c != 0 {
				return c
			}
		}
		return 0
	})
	largest, size := map[int]int{}, map[int]int{}
	for i, partial := range p.PartialLinearizations {
		for _, s := range partial {
			if size[s.Index] < len(partial) {
				size[s.Index], largest[s.Index] = len(partial), i
			}
		}
	}
	p.Largest = largest
}
