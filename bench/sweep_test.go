package bench

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

func embedded(t *testing.T, n int) *Target {
	t.Helper()
	tg, err := Embedded(n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tg.Close)
	return tg
}

// TestTinySweepStructure runs a very short sweep over miniredis and checks
// the shape of what comes back: a row per subject and cell, every
// repetition present and interleaved, consistent counts. It asserts no
// speed.
func TestTinySweepStructure(t *testing.T) {
	tg := embedded(t, 3)
	cfg := Config{Clients: []int{1, 4}, QuorumNodes: []int{1, 3}, Reps: 2, Subjects: []string{"basic", "service", "redlock"},
		Timing: Timing{Warmup: 10 * time.Millisecond, Duration: 80 * time.Millisecond}}
	subjects := filterSubjects(Subjects(), cfg.Subjects)
	res, err := Run(context.Background(), tg, Subjects(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	single, quorum := len(familyOf(subjects, Single)), len(familyOf(subjects, Quorum))
	if single != 3 || quorum != 2 {
		t.Fatalf("families have %d single and %d quorum subjects, want 3 (floor, basic, service) and 2 (fanout, redlock)", single, quorum)
	}
	cellsPerFamily := 2 * 2 // clients × keys
	if want := cellsPerFamily * (single + 2*quorum); len(res.Rows) != want {
		t.Fatalf("%d rows, want %d", len(res.Rows), want)
	}
	if want := 2 * cellsPerFamily * (single + 2*quorum); len(res.Samples) != want {
		t.Fatalf("%d samples, want %d", len(res.Samples), want)
	}
	cycles := map[string]float64{}
	for _, r := range res.Rows {
		checkRow(t, r)
		if r.Keys == Distinct {
			cycles[string(r.Family)+"/"+r.Subject] += r.CyclesPerSec
		}
	}
	for name, c := range cycles {
		if c == 0 {
			t.Errorf("%s: no cycle completed on any uncontended cell", name)
		}
	}
	for _, s := range res.Samples {
		if s.Acquire.Count() != uint64(s.Acquired) || s.Cycle.Count() != uint64(s.Acquired) {
			t.Errorf("%s %s: %d acquired but histograms hold %d and %d", s.Subject, s.Cell, s.Acquired, s.Acquire.Count(), s.Cycle.Count())
		}
		// More cycles than clients: some client completed two in the
		// window, so the second one's commands were sent inside it.
		if s.Acquired > int64(s.Cell.Clients) && s.RoundTrips == 0 {
			t.Errorf("%s %s: %d cycles completed with no round trip counted", s.Subject, s.Cell, s.Acquired)
		}
	}
	checkInterleaved(t, res.Samples, single)
}

func checkRow(t *testing.T, r Row) {
	t.Helper()
	name := r.Subject + " " + Cell{r.Family, r.Nodes, r.Clients, r.Keys}.String()
	if r.Reps != 2 {
		t.Errorf("%s: %d reps, want 2", name, r.Reps)
	}
	if r.Reference != referenceOf(r.Family) {
		t.Errorf("%s: reference %q, want %q", name, r.Reference, referenceOf(r.Family))
	}
	if r.Errors != 0 {
		t.Errorf("%s: %d errors, first: %s", name, r.Errors, r.FirstError)
	}
	if r.Subject == r.Reference && r.CyclesPerSec > 0 && r.RatioReference != 1 {
		t.Errorf("%s: reference's ratio to itself = %v", name, r.RatioReference)
	}
	if r.CyclesPerSecMin > r.CyclesPerSec || r.CyclesPerSec > r.CyclesPerSecMax {
		t.Errorf("%s: median %v outside [%v, %v]", name, r.CyclesPerSec, r.CyclesPerSecMin, r.CyclesPerSecMax)
	}
	if r.AcquireP50 > r.CycleP50 || r.CycleP50 > r.CycleP99 || r.CycleP99 > r.CycleP999 {
		t.Errorf("%s: percentiles out of order: acquire p50 %v, cycle %v/%v/%v", name, r.AcquireP50, r.CycleP50, r.CycleP99, r.CycleP999)
	}
}

// checkInterleaved checks that the first Single cell ran its subjects in an
// order rotated by one between repetitions.
func checkInterleaved(t *testing.T, ss []Sample, n int) {
	t.Helper()
	first := ss[0].Cell
	var rep0, rep1 []string
	for _, s := range ss {
		switch {
		case s.Cell != first:
		case s.Rep == 0:
			rep0 = append(rep0, s.Subject)
		case s.Rep == 1:
			rep1 = append(rep1, s.Subject)
		}
	}
	if len(rep0) != n || len(rep1) != n {
		t.Fatalf("cell %s: %d and %d runs per repetition, want %d", first, len(rep0), len(rep1), n)
	}
	want := append(append([]string{}, rep0[1:]...), rep0[0])
	if strings.Join(rep1, ",") != strings.Join(want, ",") {
		t.Errorf("repetition 2 ran %v, want %v (repetition 1 rotated)", rep1, want)
	}
}

func TestConfigValidation(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Clients: []int{0}}, "clients (0)"},
		{Config{Keys: []KeyMode{"warm"}}, `keys ("warm")`},
		{Config{QuorumNodes: []int{2}}, "quorum node count (2)"},
		{Config{QuorumNodes: []int{7}}, "quorum node count (7)"},
		{Config{Timing: Timing{Duration: -time.Second}}, "duration (-1s)"},
		{Config{Timing: Timing{TTL: time.Millisecond}}, "ttl (1ms)"},
	} {
		_, err := tc.cfg.withDefaults(5)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("withDefaults(%+v) = %v, want an error naming %s", tc.cfg, err, tc.want)
		}
	}
	c, err := Config{}.withDefaults(5)
	if err != nil || c.Reps != 3 || c.Duration != time.Second || len(c.Clients) != 4 {
		t.Errorf("defaults = %+v, %v", c, err)
	}
}

// TestProgressOnlyOnTerminal: a regular file or a pipe gets no progress
// bar; a terminal would (term.IsTerminal), and so does a plain writer.
func TestProgressOnlyOnTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "progress")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var buf bytes.Buffer
	for _, out := range []io.Writer{f, w, &buf} {
		bar := newBar(out, 3)
		_ = bar.Add(3)
	}
	w.Close()
	if st, _ := f.Stat(); st.Size() != 0 {
		t.Errorf("a progress bar wrote %d bytes to a regular file", st.Size())
	}
	if piped, _ := io.ReadAll(r); len(piped) != 0 {
		t.Errorf("a progress bar wrote %q to a pipe", piped)
	}
	if !strings.Contains(buf.String(), "3/3") {
		t.Errorf("a progress bar wrote %q to a plain writer, want the finished bar", buf.String())
	}
}
