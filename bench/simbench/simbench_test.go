package simbench

import (
	"bytes"
	"strings"
	"testing"

	"github.com/locksim/locksim/bench"
	"github.com/locksim/locksim/pattern"
)

func TestRunAndWrite(t *testing.T) {
	p, err := pattern.Lookup("basic")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		goal float64
		want string
	}{{1, bench.Met}, {1e12, bench.Missed}} {
		res, err := Run(Config{Patterns: []pattern.Pattern{p}, Scenario: "steady", Seeds: 1, Reps: 2, Goal: tc.goal})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Samples) != 2 || len(res.Rows) != 1 {
			t.Fatalf("samples %d, rows %d; want 2 and 1", len(res.Samples), len(res.Rows))
		}
		r := res.Rows[0]
		if r.Status != tc.want || r.PerCPUMin.Median <= 0 || r.CmdsPerSeed <= 0 {
			t.Errorf("goal %g: row %+v, want status %s and positive rates", tc.goal, r, tc.want)
		}
		var md, csv bytes.Buffer
		if err := WriteMarkdown(&md, res); err != nil {
			t.Fatal(err)
		}
		if err := WriteCSV(&csv, res); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(md.String(), "| basic | 1 |") || strings.Count(csv.String(), "\nbasic,") != 2 {
			t.Errorf("outputs lack basic's lines:\n%s\n%s", md.String(), csv.String())
		}
	}
	if _, err := Run(Config{Patterns: []pattern.Pattern{p}, Scenario: "nope", Seeds: 1, Reps: 1}); err == nil ||
		!strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown scenario: err = %v, want one naming it", err)
	}
}
