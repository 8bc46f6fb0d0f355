package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fenced under gc-pause breaks none of its claims, while its clients
// overlap (its store's fencing makes the overlaps harmless): the rate
// counts what the verdict counts, zero, and the overlaps are reported
// apart, labelled as not a claim of fenced.
func TestRunRatesCountThePatternsClaims(t *testing.T) {
	out, _, err := runCLI(t, "run", "--pattern", "fenced", "--scenario", "gc-pause", "--seed", "1")
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	for _, want := range []string{
		"verdict   ok: no claim violated",
		"safety    overlaps 3,",
		"rates     0 violations of fenced's claims per simulated hour, 0 per million acquisitions\n",
		"unclaimed 3 overlaps, 1.08e+04 per simulated hour (mutex is not a claim of fenced: not violations, in no rate)\n",
		"overlap c1,c2 (mutex: not a claim of fenced): ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("run output lacks %q:\n%s", want, out)
		}
	}
	out, _, err = runCLI(t, "run", "--pattern", "fenced", "--scenario", "gc-pause", "--seed", "1", "--json")
	if err != nil {
		t.Fatalf("run --json: %v\n%s", err, out)
	}
	var res struct {
		Violated        []string
		ClaimViolations *int     `json:"claim_violations"`
		PerHour         *float64 `json:"violations_per_sim_hour"`
		PerMillion      *float64 `json:"violations_per_million_acquisitions"`
		Unclaimed       []struct {
			Claim   string
			Count   int
			Claimed bool
		}
		Stats struct{ Violations int }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(res.Violated) != 0 || res.ClaimViolations == nil || *res.ClaimViolations != 0 || res.PerHour == nil || *res.PerHour != 0 || res.PerMillion == nil || *res.PerMillion != 0 {
		t.Errorf("run --json: violated %v, claim violations %v, rates %v/h %v/M; want none, 0, 0 and 0", res.Violated, res.ClaimViolations, res.PerHour, res.PerMillion)
	}
	if len(res.Unclaimed) != 1 || res.Unclaimed[0].Claim != "mutex" || res.Unclaimed[0].Count != 3 || res.Unclaimed[0].Claimed || res.Stats.Violations != 3 {
		t.Errorf("run --json: unclaimed %+v, stats.violations %d; want the 3 overlaps as unclaimed mutex, and counted in stats", res.Unclaimed, res.Stats.Violations)
	}
}

// A one-seed ok says it judged one seed, and gives the explore command
// that measures a rate, quoted for a shell.
func TestRunOKSaysOneSeedAndHowToExplore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "my pause.txt")
	if err := os.WriteFile(path, []byte("start clients=2 ttl=100ms\npause c1 on=write for=150ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "run", "--pattern", "fenced", "--scenario", path, "--seed", "1")
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	for _, want := range []string{
		"verdict   ok: no claim violated in this one seed; one seed is no rate: see explore below\n",
		"explore   locksim explore --pattern fenced --scenario '" + path + "' --seeds 100\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("run output lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = runCLI(t, "run", "--pattern", "fenced", "--scenario", path, "--seed", "1", "--json")
	var res struct{ Explore string }
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Explore != "locksim explore --pattern fenced --scenario '"+path+"' --seeds 100" {
		t.Errorf("run --json: explore %q (%v), want the quoted explore command", res.Explore, err)
	}
}

// run's replay command is quoted for a shell, as explore's are.
func TestRunReplayIsShellQuoted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "it's a pause.txt")
	if err := os.WriteFile(path, []byte("start clients=2 ttl=100ms\npause c1 on=write for=150ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "run", "--pattern", "basic", "--scenario", path, "--seed", "1")
	if exitCode(err) != exitViolation {
		t.Fatalf("run: exit %d (%v), want %d\n%s", exitCode(err), err, exitViolation, out)
	}
	quoted := `'` + strings.ReplaceAll(path, `'`, `'\''`) + `'`
	want := "locksim run --pattern basic --scenario " + quoted + " --seed 1 --trace trace.txt"
	if !strings.Contains(out, "replay    "+want+"\n") {
		t.Errorf("run output lacks the quoted replay %q:\n%s", want, out)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("run error %q lacks the quoted replay %q", err, want)
	}
}

// run judges one cell: all, or a list, is explore's, and the error says
// so with the command (exit 2).
func TestRunOfManyPointsToExplore(t *testing.T) {
	for _, c := range []struct{ pattern, scenario, want string }{
		{"all", "gc-pause", "locksim explore --pattern all --scenario gc-pause --seeds 100"},
		{"basic,fenced", "gc-pause", "locksim explore --pattern basic,fenced --scenario gc-pause --seeds 100"},
		{"basic", "all", "locksim explore --pattern basic --scenario all --seeds 100"},
	} {
		_, _, err := runCLI(t, "run", "--pattern", c.pattern, "--scenario", c.scenario)
		if exitCode(err) != exitUsage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("run --pattern %s --scenario %s: exit %d, error %v; want exit %d naming %q", c.pattern, c.scenario, exitCode(err), err, exitUsage, c.want)
		}
	}
}

// --show-scenario prints a scenario file and runs nothing: --json (and the
// outputs of a run) would be ignored, so they are refused.
func TestRunShowScenarioRefusesWhatItWouldIgnore(t *testing.T) {
	for _, extra := range [][]string{{"--json"}, {"--trace", "t.txt"}, {"--history", "h.json"}, {"--viz", "v.html"}} {
		args := append([]string{"run", "--pattern", "basic", "--scenario", "gc-pause", "--show-scenario"}, extra...)
		out, _, err := runCLI(t, args...)
		if exitCode(err) != exitUsage || !strings.Contains(err.Error(), extra[0]) || out != "" {
			t.Errorf("locksim %s: exit %d, error %v, output %q; want exit %d naming %s, nothing printed",
				strings.Join(args, " "), exitCode(err), err, out, exitUsage, extra[0])
		}
	}
}

// check --json carries its verdict: passed, or failed.
func TestCheckJSONCarriesItsVerdict(t *testing.T) {
	for _, c := range []struct {
		line, want string
		code       int
	}{
		{"basic gc-pause breaks mutex seeds=2\n", "passed", exitOK},
		{"basic gc-pause holds mutex seeds=2 # wrong\n", "failed", exitViolation},
	} {
		expect := writeFile(t, "e.txt", c.line)
		out, _, err := runCLI(t, "check", "--expect", expect, "--unlisted", "skip", "--json")
		if exitCode(err) != c.code {
			t.Fatalf("check %q: exit %d (%v), want %d", c.line, exitCode(err), err, c.code)
		}
		var res struct{ Verdict string }
		if err := json.Unmarshal([]byte(out), &res); err != nil || res.Verdict != c.want {
			t.Errorf("check --json of %q: verdict %q (%v), want %q", c.line, res.Verdict, err, c.want)
		}
	}
}
