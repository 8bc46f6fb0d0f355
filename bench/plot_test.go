package bench

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// committedResults is the last sweep's results.json, as `make bench`
// committed it.
const committedResults = "../reports/bench/results.json"

// TestPlotsFromCommittedResults draws every plot of the committed sweep
// (into $LOCKSIM_PLOTS_DIR when set, to be looked at; else a temporary
// directory) and checks that each one's legend is drawn beside its data,
// not over it: the image is wider than the plot by the legend's column.
func TestPlotsFromCommittedResults(t *testing.T) {
	data, err := os.ReadFile(committedResults)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no committed results, and CI=true requires the plot test to run on them: %v", err)
		}
		t.Skipf("no committed results: %v", err)
	}
	var res Result
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("%s: %v", committedResults, err)
	}
	dir := os.Getenv("LOCKSIM_PLOTS_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := WritePlots(dir, &res); err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, name := range ReportFiles(res.Config.Keys) {
		if filepath.Ext(name) != ".png" {
			continue
		}
		want++
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Error(err)
			continue
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if plotPx := int(plotW.Dots(pngDPI)); cfg.Width <= plotPx+int(legendGap.Dots(pngDPI)) {
			t.Errorf("%s: %d px wide, want more than the plot's %d px and the gap: a legend column beside the data", name, cfg.Width, plotPx)
		}
	}
	if want == 0 {
		t.Errorf("the committed results draw no plot")
	}
}
