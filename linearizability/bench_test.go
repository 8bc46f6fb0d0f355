package linearizability

import (
	"fmt"
	"testing"
)

func TestGeneratedHistoriesCheckOk(t *testing.T) {
	for _, unknown := range []float64{0, 0.01} {
		h := genHistory(1, 2000, 8, unknown)
		rep, err := Check(h, Options{Models: AllModels})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != Ok || len(rep.Parts) != 3 {
			t.Fatalf("generated history (unknown %.2f): %s", unknown, rep)
		}
		if unknown > 0 && rep.Unknown == 0 {
			t.Errorf("generated history has no unknown outcome")
		}
		// Falsify one section's read: no longer linearizable.
		for i := range h.Ops {
			if h.Ops[i].Kind == "section" && !h.Ops[i].Unknown() && i > len(h.Ops)/2 {
				h.Ops[i].Value--
				break
			}
		}
		if rep, _ := Check(h, Options{Models: AllModels}); rep.Verdict != Illegal {
			t.Errorf("generated history with a stale read: %s, want illegal", rep.Verdict)
		}
	}
}

// BenchmarkCheck measures check time against history size: n ops on one
// key by 8 clients, each op overlapping about ten others, all three models.
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		for _, unknown := range []float64{0, 0.001} {
			h := genHistory(1, n, 8, unknown)
			b.Run(fmt.Sprintf("ops=%d/unknown=%.1f%%", n, unknown*100), func(b *testing.B) {
				for b.Loop() {
					rep, err := Check(h, Options{Models: AllModels})
					if err != nil || rep.Verdict != Ok {
						b.Fatalf("check: %v %v", rep.Verdict, err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/op-checked")
			})
		}
	}
}
