package gate

import (
	"testing"

	"github.com/locksim/locksim/internal/explore"
)

// A check's replay is a command a shell runs as printed, whether it
// reruns a breaking seed or explores a cell none broke: a scenario file's
// path is quoted in both.
func TestReplayIsShellQuoted(t *testing.T) {
	seed := uint64(3)
	for _, c := range []struct {
		o    Outcome
		want string
	}{
		{Outcome{Pattern: "basic", Arg: "my pause.txt", Seeds: explore.Seeds{Start: 1, Count: 6}, FirstSeed: &seed},
			"locksim run --pattern basic --scenario 'my pause.txt' --seed 3"},
		{Outcome{Pattern: "basic", Arg: "my pause.txt", Seeds: explore.Seeds{Start: 1, Count: 6}},
			"locksim explore --pattern basic --scenario 'my pause.txt' --seeds 6 --seed-start 1"},
	} {
		if got := c.o.Replay(); got != c.want {
			t.Errorf("Replay() = %q, want %q", got, c.want)
		}
	}
}
