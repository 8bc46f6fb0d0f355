package explore

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		err  string
	}{
		{"0/1", Shard{0, 1}, ""},
		{"3/8", Shard{3, 8}, ""},
		{"3/2", Shard{}, "i is 3, want 0 ≤ i < 2"},
		{"2/2", Shard{}, "i is 2"},
		{"-1/2", Shard{}, "i is -1"},
		{"0/0", Shard{}, "n is 0"},
		{"1", Shard{}, "want i/n"},
		{"a/b", Shard{}, "want i/n"},
	} {
		got, err := ParseShard(tc.in)
		if tc.err == "" {
			if err != nil || got != tc.want {
				t.Errorf("ParseShard(%q) = %v, %v, want %v", tc.in, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseShard(%q) error = %v, want one containing %q", tc.in, err, tc.err)
		}
	}
}

// shardSeeds lists the seeds of s that shard sh runs.
func shardSeeds(sh Shard, s Seeds) []uint64 {
	_, n := sh.span(s)
	var out []uint64
	for k := range n {
		out = append(out, sh.seed(s, k))
	}
	return out
}

func TestShardsPartitionSeeds(t *testing.T) {
	if got := shardSeeds(Shard{0, 2}, Seeds{Start: 10, Count: 4}); !slices.Equal(got, []uint64{10, 12}) {
		t.Errorf("shard 0/2 of seeds 10..13 = %v, want [10 12]", got)
	}
	if got := shardSeeds(Shard{1, 2}, Seeds{Start: 10, Count: 4}); !slices.Equal(got, []uint64{11, 13}) {
		t.Errorf("shard 1/2 of seeds 10..13 = %v, want [11 13]", got)
	}
	for _, s := range []Seeds{{1, 1}, {1, 10}, {7, 3}, {0, 17}, {5, 2}} {
		for n := 1; n <= 6; n++ {
			var all []uint64
			for i := range n {
				for _, seed := range shardSeeds(Shard{i, n}, s) {
					if seed%uint64(n) != uint64(i) {
						t.Errorf("shard %d/%d of %+v runs seed %d", i, n, s, seed)
					}
					all = append(all, seed)
				}
			}
			slices.Sort(all)
			want := shardSeeds(Shard{}, s)
			if !slices.Equal(all, want) {
				t.Errorf("shards of %d over %+v cover %v, want %v", n, s, all, want)
			}
		}
	}
}

func TestSeedsValidate(t *testing.T) {
	for _, s := range []Seeds{{1, 0}, {1, -3}, {^uint64(0), 2}} {
		if err := s.Validate(); err == nil {
			t.Errorf("Seeds%+v.Validate() = nil, want an error", s)
		}
	}
	if err := (Seeds{Start: ^uint64(0), Count: 1}).Validate(); err != nil {
		t.Errorf("the last seed alone: %v", err)
	}
}

func TestResolve(t *testing.T) {
	if _, err := ResolvePatterns("basic,no-such"); err == nil || !strings.Contains(err.Error(), `"no-such"`) {
		t.Errorf("ResolvePatterns(basic,no-such) error = %v, want it to name no-such", err)
	}
	if ps, err := ResolvePatterns("all"); err != nil || len(ps) < 6 {
		t.Errorf("ResolvePatterns(all) = %d patterns, %v", len(ps), err)
	}
	if _, err := ResolveScenarios("gc-pause,no-such"); err == nil || !strings.Contains(err.Error(), `"no-such"`) {
		t.Errorf("ResolveScenarios(gc-pause,no-such) error = %v, want it to name no-such", err)
	}
	path := filepath.Join(t.TempDir(), "mine.txt")
	if err := os.WriteFile(path, []byte("start clients=2 ttl=100ms duration=1s\npause c1 on=write for=150ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	scs, err := ResolveScenarios("gc-pause," + path)
	if err != nil || len(scs) != 2 || scs[1].Name != "mine" || scs[1].Arg != path {
		t.Fatalf("ResolveScenarios(gc-pause,file) = %+v, %v", scs, err)
	}
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("start clients=0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ResolveScenarios(bad); err == nil || !strings.Contains(err.Error(), "clients") {
		t.Errorf("ResolveScenarios(bad file) error = %v, want it to name the field", err)
	}
}

func TestReplayCommandQuotes(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"gc-pause", "locksim run --pattern basic --scenario gc-pause --seed 7"},
		{"dir/my faults.txt", "locksim run --pattern basic --scenario 'dir/my faults.txt' --seed 7"},
		{"it's.txt", `locksim run --pattern basic --scenario 'it'\''s.txt' --seed 7`},
	} {
		if got := ReplayCommand("basic", tc.arg, 7); got != tc.want {
			t.Errorf("ReplayCommand(basic, %q, 7) = %q, want %q", tc.arg, got, tc.want)
		}
	}
}

// TestClaimNamesAsSimulator keeps ClaimNames in step with the claims the
// simulator names in its results, for every pattern of the catalog.
func TestClaimNamesAsSimulator(t *testing.T) {
	sc, err := scenario.ParseString("start clients=1 ttl=100ms duration=50ms\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pattern.All() {
		c, err := NewCell(p, Parsed("tiny", sc, []byte("start clients=1 ttl=100ms duration=50ms\n")), Seeds{Start: 1, Count: 1})
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(sim.Config{Pattern: p, Scenario: c.resolved, Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if got := ClaimNames(p.Claims); !slices.Equal(got, res.Claims) {
			t.Errorf("ClaimNames(%s) = %v, the simulator says %v", p.Name, got, res.Claims)
		}
	}
}
