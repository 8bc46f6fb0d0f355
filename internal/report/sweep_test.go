package report

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/pattern"
)

func lookupAll(t *testing.T, names ...string) []pattern.Pattern {
	t.Helper()
	var out []pattern.Pattern
	for _, n := range names {
		p, err := pattern.Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// TestSweepPauseCurve checks the pause curve of basic and fenced: a pause
// well inside the lease breaks nothing, one of two TTLs breaks basic in
// every seed, and fenced's store, checking tokens, loses nothing at any
// length.
func TestSweepPauseCurve(t *testing.T) {
	d, err := LookupDimension("pause")
	if err != nil {
		t.Fatal(err)
	}
	s, err := RunSweep(context.Background(), SweepConfig{Dimension: d, Points: []float64{0.25, 2}, Patterns: lookupAll(t, "basic", "fenced"), Seeds: 4})
	if err != nil {
		t.Fatal(err)
	}
	at := func(pattern string, k int) *Cell {
		for i, p := range s.Patterns {
			if p.Name == pattern {
				return s.Cells[i][k]
			}
		}
		t.Fatalf("no %s in the sweep", pattern)
		return nil
	}
	if c := at("basic", 0); c.Violating != 0 {
		t.Errorf("basic paused 0.25 TTL: %d/%d violating, want 0", c.Violating, c.Seeds)
	}
	if c := at("basic", 1); c.Violating != c.Seeds {
		t.Errorf("basic paused 2 TTL: %d/%d violating, want every seed", c.Violating, c.Seeds)
	}
	for k := range s.Points {
		if c := at("fenced", k); c.Violating != 0 {
			t.Errorf("fenced at pause %v TTL: %d/%d violating, want 0", s.Points[k], c.Violating, c.Seeds)
		}
	}
	dir := t.TempDir()
	if err := WriteSweepPlot(dir, s); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".png", ".svg"} {
		if fi, err := os.Stat(filepath.Join(dir, SweepPlot(s)+ext)); err != nil || fi.Size() == 0 {
			t.Errorf("sweep plot %s: %v", ext, err)
		}
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, SweepDocument(s, "")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| basic | 0/4 (0%, 0–49%) † | **4/4 (100%, 51–100%)** |") {
		t.Errorf("the sweep table lacks basic's row:\n%s", md.String())
	}
}

func TestSweepNodesNeedsSeveralNodes(t *testing.T) {
	d, _ := LookupDimension("nodes")
	_, err := RunSweep(context.Background(), SweepConfig{Dimension: d, Patterns: lookupAll(t, "basic"), Seeds: 1})
	if err == nil || !strings.Contains(err.Error(), "no pattern of several nodes") {
		t.Errorf("nodes sweep of basic alone: %v, want an error naming the cause", err)
	}
	_, err = RunSweep(context.Background(), SweepConfig{Dimension: d, Points: []float64{2.5}, Patterns: lookupAll(t, "redlock"), Seeds: 1})
	if err == nil || !strings.Contains(err.Error(), "2.5") {
		t.Errorf("nodes sweep at 2.5: %v, want an error naming the point", err)
	}
	if _, err := LookupDimension("gravity"); err == nil || !strings.Contains(err.Error(), "pause") {
		t.Errorf("LookupDimension(gravity) = %v, want an error listing the known ones", err)
	}
}

// TestEveryDimensionBuildsValidScenarios builds every default point of
// every dimension and validates it.
func TestEveryDimensionBuildsValidScenarios(t *testing.T) {
	for _, d := range Dimensions() {
		for _, v := range d.Points {
			nodes := 1
			if d.MultiNode {
				nodes = 3
			}
			base := sweepBase()
			if _, err := d.Build(base, v, nodes).Resolve(nodes); err != nil {
				t.Errorf("%s=%v: %v", d.Name, v, err)
			}
		}
	}
}
