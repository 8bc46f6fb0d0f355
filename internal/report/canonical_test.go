package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// reordered returns page with every partition's partial linearizations
// reversed, as porcupine's map may hand them out.
func reordered(t *testing.T, page []byte) []byte {
	t.Helper()
	m := vizDataLine.FindSubmatchIndex(page)
	var d vizData
	if err := json.Unmarshal(page[m[2]:m[3]], &d); err != nil {
		t.Fatal(err)
	}
	for _, p := range d.Partitions {
		slices.Reverse(p.PartialLinearizations)
	}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Concat(page[:m[2]], data, page[m[3]:])
}

// TestCanonicalViz draws an illegal run, then checks that the page does
// not depend on the order porcupine found the partial linearizations in.
func TestCanonicalViz(t *testing.T) {
	p, _ := pattern.Lookup("basic")
	sc, err := scenario.Lookup("gc-pause", p.Nodes)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(sim.Config{Pattern: p, Scenario: sc, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "v.html")
	if _, err := VizFile(path, res.History, DefaultCheckTimeout); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d vizData
	m := vizDataLine.FindSubmatch(page)
	if m == nil || json.Unmarshal(m[1], &d) != nil || len(d.Partitions) == 0 || len(d.Partitions[0].PartialLinearizations) < 2 {
		t.Fatalf("the page of an illegal run lacks several partial linearizations to order")
	}
	again, err := canonicalViz(reordered(t, page))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, page) {
		t.Error("the page changes with the order of the partial linearizations")
	}
	if _, err := canonicalViz([]byte("<html>no data</html>")); err == nil {
		t.Error("canonicalViz of a page without data: no error")
	}
}
